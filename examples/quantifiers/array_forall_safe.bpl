//#Safe
// A quantified precondition on a map, assumed, and a quantified assertion that follows from it
// after an update outside the constrained range.
var a: [int]int;

procedure main(n: int)
modifies a;
{
  assume n >= 0;
  assume (forall k: int :: 0 <= k && k < n ==> a[k] >= 0);
  a[n] := -1;
  assert (forall k: int :: 0 <= k && k < n ==> a[k] >= 0);
  assert (exists k: int :: a[k] < 0);
}
