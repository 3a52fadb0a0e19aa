//#Safe
procedure main() { var x, y: int; x := 0; y := 0;
  while (*) { x := x + 1; if (*) { y := y + 2; } else { y := y + 1; } }
  assert y <= 2 * x; }
