//#Unsafe
// Two consecutive loops; an equality valid at the first head is not valid at the second.
procedure main() { var x, y: int; x := 0; y := 0;
  while (x < 5) { x := x + 1; y := y + 1; }
  while (y > 0) { y := y - 2; }
  assert y == 0; }
