//#Unsafe
procedure main() { var x, y: int; x := 0; y := 0;
  L: x := x + 1; y := y + 1; goto L, M;
  M: if (x == 4) { y := y + 1; } goto L, E;
  E: assert x == y; }
