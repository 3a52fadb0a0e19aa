//#Unsafe
// Inlined into ULTIMATE.start, the callee's checked postcondition still fails: its free one does not
// guard it.
procedure ULTIMATE.start() {
  var x: int;
  call x := p();
  assert x > 5;
}

procedure p() returns (r: int)
  free ensures r > 5;
  ensures r > 0;
{
  r := -1;
}
