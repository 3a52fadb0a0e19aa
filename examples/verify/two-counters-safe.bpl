//#Safe
// Two variables in lock step: needs the relational invariant i == j.
procedure main()
{
  var i, j, n: int;
  i := 0;
  j := 0;
  while (i < n) {
    i := i + 1;
    j := j + 1;
  }
  if (n >= 0) {
    assert i == j;
  }
}
