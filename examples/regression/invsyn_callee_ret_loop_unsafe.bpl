//#Unsafe
// The out-parameter r is arbitrary at the start of each call.
procedure f(x: int) returns (r: int) { if (x > 0) { r := x; } }
procedure ULTIMATE.start() { var k, s: int; k := 3; while (k >= 0) { call s := f(k); k := k - 1; } assert s == 0; }
