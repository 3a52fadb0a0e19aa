//#Unsafe
// The first checked invariant is checked before the free one is assumed: x == 0 on entry violates it.
procedure main() {
  var x: int;
  x := 0;
  while (x < 10)
    invariant x >= 1;
    free invariant x >= 0;
    invariant x >= 0;
  {
    x := x + 1;
  }
}
