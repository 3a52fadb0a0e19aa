//#Unsafe
// A `where` clause is assumed where the variable gets an arbitrary value (start, `havoc`, call),
// not maintained as an invariant: after an assignment it need not hold.
procedure ULTIMATE.start() returns ()
{
  var x: int where x > 5;
  havoc x;
  x := x - 10;
  assert x > 5;
}
