//#Safe
// Each cell gets a value chosen below its index (`havoc x; assume x < i; a[i] := x`): no single
// value is stored, but every cell passed is bounded, `forall k :: 0 <= k && k < i ==> a[k] <= k - 1`,
// a candidate read off the store and the assumption that bounds its value.
var a: [int]int;

procedure main()
modifies a;
{
  var i, n, j, x: int;
  i := 0;
  while (i < n)
  {
    havoc x;
    assume x < i;
    a[i] := x;
    i := i + 1;
  }
  assume 0 <= j && j < n;
  assert a[j] < j;
}
