//#Unsafe
// callee with body returning x*2 called in loop accumulating; s = 0+2+4+6+8 = 20 after 5 iterations; assert s != 20 fails.
procedure dbl(x: int) returns (r: int) { r := x * 2; }
procedure ULTIMATE.start() { var i, s, t: int; i := 0; s := 0; while (i < 5) { call t := dbl(i); s := s + t; i := i + 1; } assert s != 20; }
