//#Safe
// Loop specifications in source order: the free invariant is assumed before the checked one is checked.
procedure main() {
  var x: int;
  while (*)
    free invariant x >= 0;
    invariant x + 1 > 0;
  {
    havoc x;
  }
}
