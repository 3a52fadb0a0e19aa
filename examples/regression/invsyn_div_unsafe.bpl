//#Unsafe
// y == x / 2 is not affine; after x := 3, y == 1 but 2*y != x.
procedure main() { var x, y: int; x := 0; y := 0;
  while (x < 3) { x := x + 1; y := x / 2; }
  assert 2 * y == x; }
