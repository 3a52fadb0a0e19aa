//#Unsafe
procedure main() { var x, y: int; x := 0; y := 0;
  while (*) { x := x + 1; y := y + 1; if (x == 3) { havoc y; } }
  assert y == x; }
