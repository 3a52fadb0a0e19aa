//#Safe
// The caller may rely on the callee's free postcondition (Boogie's call semantics); the callee's own
// checked postcondition holds.
procedure ULTIMATE.start() {
  var x: int;
  call x := p();
  assert x > 5;
}

procedure p() returns (r: int)
  free ensures r > 5;
  ensures r >= 0;
{
  havoc r;
  assume r >= 0;
}
