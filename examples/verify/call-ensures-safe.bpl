//#Safe
// A call of a procedure without a body is summarised by its contract.
var g: int;

procedure inc(a: int) returns (r: int);
  modifies g;
  ensures r == a + 1;
  ensures g == old(g) + 1;

procedure ULTIMATE.start()
  modifies g;
{
  var y: int;
  g := 5;
  call y := inc(3);
  assert y == 4 && g == 6;
}
