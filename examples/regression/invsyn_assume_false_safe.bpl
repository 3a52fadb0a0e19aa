//#Safe
procedure main() { var x, y: int; x := 0; y := 0;
  while (*) { x := x + 1; if (x == 5) { assume false; y := 100; } y := y + 1; }
  assert x == y; }
