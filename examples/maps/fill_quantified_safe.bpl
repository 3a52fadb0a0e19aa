//#Safe
// Fill a[0..n) with 42 in a loop: afterwards every cell below n holds 42. The loop invariant is
// quantified, `forall k :: 0 <= k && k < i ==> a[k] == 42`, a candidate read off the store
// `a[i] := 42` and proven inductive.
var a: [int]int;

procedure main()
modifies a;
{
  var i, n, j: int;
  i := 0;
  while (i < n)
  {
    a[i] := 42;
    i := i + 1;
  }
  assume 0 <= j && j < n;
  assert a[j] == 42;
}
