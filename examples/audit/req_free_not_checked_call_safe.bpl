//#Safe
// The free precondition is not checked at the call; the checked one holds.
procedure ULTIMATE.start() {
  call q(1);
}

procedure q(x: int)
  free requires x > 5;
  requires x > 0;
{
}
