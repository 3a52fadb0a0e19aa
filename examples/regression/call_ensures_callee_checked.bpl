//#Unsafe
// callee with body whose ensures fails only on one return path; called from start with arg that hits it.
procedure P(x: int) returns (r: int) ensures r > 0; { if (x == 7) { r := 0; return; } r := 1; }
procedure ULTIMATE.start() { var y: int; call y := P(7); }
