//#Safe
// A procedure without a body: the caller assumes all its postconditions, free or not.
procedure ULTIMATE.start() {
  var x: int;
  call x := p();
  assert x > 5 && x > 0;
}

procedure p() returns (r: int);
  free ensures r > 5;
  ensures r > 0;
