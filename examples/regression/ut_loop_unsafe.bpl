//#Unsafe
type T; const unique a, b: T;
procedure main() { var x: T; var n: int; x := a; n := 0;
  while (*) { if (x == a) { x := b; } else { x := a; } n := n + 1; }
  assert (x == a) == (n % 3 == 0); }
