//#Unsafe
procedure main() { var x, y: int; x := 0; y := 0;
  while (*) { x := x + 1; if (*) { y := y + 1; } }
  assert y == x; }
