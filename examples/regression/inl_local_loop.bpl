//#Unsafe
// callee in a loop: local c starts arbitrary each call; the callee returns c+1 only when c was set
// in that very call. In iteration 2, flag=false, so return value arbitrary.
procedure f(flag: bool) returns (r: int) { var c: int; if (flag) { c := 0; } r := c + 1; }
procedure ULTIMATE.start() { var i, x: int; i := 0; while (i < 3) { call x := f(i == 0); assert x == 1; i := i + 1; } }
