//#Safe
// with ULTIMATE.start, P's bad path (x == 7) is never taken.
procedure P(x: int) returns (r: int) ensures r > 0; { if (x == 7) { r := 0; return; } r := 1; }
procedure ULTIMATE.start() { var y: int; call y := P(8); assert y == 1; }
