//#Safe
// One loop fills the cells below 20 with 7 and the others up to n with 9. The loop invariant
// needs the ranges the guard `i < 20` splits the filled cells into — `0 <= k < i && k < 20` and
// `20 <= k < i` — whose bound is the constant the index is compared with (the letters may read
// the guard as `i <= 19`, so that constant and its successor are both tried).
var a: [int]int;

procedure main()
modifies a;
{
  var i, j, n: int;
  i := 0;
  while (i < n)
  {
    if (i < 20) {
      a[i] := 7;
    } else {
      a[i] := 9;
    }
    i := i + 1;
  }
  assume 0 <= j && j < n;
  assert j < 20 ==> a[j] == 7;
  assert j >= 20 ==> a[j] == 9;
}
