//#Unsafe
// The second assertion fails when x is 5.
procedure main()
{
  var x: int;
  havoc x;
  assume x >= 0;
  assert x >= 0;
  assert x != 5;
}
