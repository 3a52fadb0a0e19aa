//#Unsafe
// x mod 3 == 0 invariant? No: x goes 0,3,6,...,48, then 49 (x := x + 1) at the end.
procedure main() { var x: int; x := 0;
  while (x < 48) { x := x + 3; }
  x := x + 1; assert x % 3 == 0; }
