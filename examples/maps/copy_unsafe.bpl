//#Unsafe
// A copy loop that forgets the last element.
procedure main() returns ()
{
  var a, b : [int]int;
  var i, n : int;
  assume n > 0;
  i := 0;
  while (i < n - 1)
  {
    b[i] := a[i];
    i := i + 1;
  }
  assert b[n - 1] == a[n - 1];
}
