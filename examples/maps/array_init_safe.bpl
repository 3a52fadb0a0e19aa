//#Safe
// Set a[k] to 0, then fill a[k+1..n) with 1 in a loop: a[k] stays 0. The loop invariant
// `a[k] == 0 && i > k` is quantifier-free.
procedure main() returns ()
{
  var a : [int]int;
  var i, n, k : int;
  assume 0 <= k && k < n;
  a[k] := 0;
  i := k + 1;
  while (i < n)
  {
    a[i] := 1;
    i := i + 1;
  }
  assert a[k] == 0;
}
