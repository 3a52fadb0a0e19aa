//#Safe
// A loop invariant is checked on entry and after each iteration, then assumed.
procedure main()
{
  var s, i, n: int;
  assume n >= 1;
  s := 0;
  i := 0;
  while (i < n)
    invariant 0 <= i && i <= n;
    invariant s >= i;
  {
    s := s + 2;
    i := i + 1;
  }
  assert s >= n;
}
