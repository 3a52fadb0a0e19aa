//#Unsafe
// As in fill_bounded_havoc_safe.bpl, each cell holds a value below its index, but the value may be
// just one below it: `a[j] < j - 1` fails when the loop stores `j - 1` at `j`.
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
  assert a[j] < j - 1;
}
