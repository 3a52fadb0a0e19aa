//#Safe
// A counting loop with a checked and a free invariant.
procedure main()
{
  var i, n: int;
  assume n >= 0;
  i := 0;
  while (i < n)
    invariant i <= n;
    free invariant i >= 0;
  {
    i := i + 1;
  }
  assert i == n;
}
