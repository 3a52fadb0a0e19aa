//#Unsafe
// mod is Euclidean: x mod 3 == 1 holds for x = -2 as well, but x >= 1 fails after one step.
procedure main() { var x: int; x := 1;
  while (*) { x := x - 3; }
  assert x % 3 == 1 && x >= 1; }
