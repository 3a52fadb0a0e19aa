//#Safe
// A free invariant is assumed, never checked: on entry it is false, so no execution reaches the loop.
procedure main() {
  var x: int;
  x := -1;
  while (*)
    free invariant x >= 0;
    invariant x > -1;
  {
    x := x + 1;
  }
  assert false;
}
