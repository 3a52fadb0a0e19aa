//#Safe
// Copy b[0..n) into a, in a loop: the quantified loop invariant
// `forall k :: 0 <= k && k < i ==> a[k] == b[k]` proves the copy.
var a, b: [int]int;

procedure main()
modifies a;
{
  var i, n, j: int;
  i := 0;
  while (i < n)
  {
    a[i] := b[i];
    i := i + 1;
  }
  assume 0 <= j && j < n;
  assert a[j] == b[j];
}
