//#Safe
procedure main() { var x, y, z: int; x := 0; y := 0; z := 0;
  while (*) { if (*) { x := x + 1; y := y + 2; } else { x := x + 2; y := y + 4; } z := 2 * x - y; }
  assert y == 2 * x && z == 0; }
