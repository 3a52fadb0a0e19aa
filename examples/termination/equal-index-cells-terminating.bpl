//#Terminating
// The loop subtracts the cells of a map at five indices that the stem makes equal, and adds four:
// x decreases by at least 1 because every cell it reads is at least 1. The ranking function x
// needs that bound on the cells as a supporting invariant, among the many candidates that five
// index variables produce.
var a: [int]int;
var p, q, r, s, t, x: int;

procedure main()
modifies a, x;
{
  assume a[p] >= 1;
  assume p == q && q == r && r == s && s == t;
  a[7] := 3;
  while (x > 0) {
    x := x + 4 - a[p] - a[q] - a[r] - a[s] - a[t];
  }
}
