//#Safe
// The callee's body may rely on its free precondition.
procedure ULTIMATE.start() {
  var y: int;
  havoc y;
  assume y > 0;
  call q(y);
}

procedure q(x: int)
  free requires x > 5;
  requires x > 0;
{
  assert x > 5;
}
