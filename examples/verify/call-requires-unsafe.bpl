//#Unsafe
// The callee's precondition is checked at the call site; here it can fail.
procedure half(a: int) returns (r: int)
  requires a >= 0;
  ensures r + r <= a;
{
  r := a / 2;
}

procedure main()
{
  var x, y: int;
  havoc x;
  if (x < 10) {
    call y := half(x);
  }
}
