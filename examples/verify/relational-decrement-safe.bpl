//#Safe
// x and y decrease together, so `i - x == j - y` is a loop invariant (Jhala & McMillan, TACAS 2006).
// Interpolants from unrollings only give `x <= k`-style facts; Karr's analysis proposes the relation
// and Houdini proves it inductive.
procedure main()
{
  var x, y, i, j: int;
  x := i;
  y := j;
  while (x != 0) {
    x := x - 1;
    y := y - 1;
  }
  if (i == j) {
    assert y == 0;
  }
}
