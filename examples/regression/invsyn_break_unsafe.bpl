//#Unsafe
procedure main() { var x, y: int; x := 0; y := 0;
  while (true) { x := x + 1; if (x == 5) { break; } y := y + 1; }
  assert x == y; }
