//#Unsafe
// The free invariant guards the checked one, but the assertion after the loop still fails.
procedure main() {
  var x: int;
  x := 0;
  while (*)
    free invariant x >= 0;
    invariant x + 1 > 0;
  {
    x := x + 1;
  }
  assert x < 3;
}
