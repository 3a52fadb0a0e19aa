//#Nonterminating
// The second assignment reads the new x: the loop maps (x, y) to (x + 2y, 3x + 6y), whose update
// matrix [[1, 2], [3, 6]] has the eigenvalues 0 and 7. From (1, 3), an eigenvector of 7, every
// iteration multiplies the state by 7 and the guard y > x stays true: a geometric nontermination
// argument, its eigenvalue a root of the characteristic polynomial of the solved update.
procedure main()
{
  var x, y: int;
  while (y > x) {
    x := x + 2 * y;
    y := 3 * x;
  }
}
