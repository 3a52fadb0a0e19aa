//#Unsafe
// Writes a[0..n] (one too many) and asserts that a[n] was never touched.
procedure main() returns ()
{
  var a : [int]int;
  var i, n : int;
  assume n >= 1 && a[n] == 0;
  i := 0;
  while (i <= n)
  {
    a[i] := 5;
    i := i + 1;
  }
  assert a[n] == 0;
}
