//#Unsafe
// x mod 2 == 0 at the head from main, but havoc breaks it once.
procedure main() { var x, n: int; x := 0; n := 0;
  while (n < 4) { x := x + 2; n := n + 1; if (n == 3) { havoc x; } }
  assert x % 2 == 0; }
