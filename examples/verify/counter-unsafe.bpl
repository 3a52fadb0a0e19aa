//#Unsafe
// The assertion fails when n = 0: the loop is not entered.
procedure main()
{
  var x, n: int;
  assume n >= 0;
  x := 0;
  while (x < n) {
    x := x + 1;
  }
  assert x > 0;
}
