//#Unsafe
// At a call site only the checked precondition is checked, and the free one does not guard it.
procedure ULTIMATE.start() {
  call q(-1);
}

procedure q(x: int)
  free requires x > 5;
  requires x > 0;
{
}
