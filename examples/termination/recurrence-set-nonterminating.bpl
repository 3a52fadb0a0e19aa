//#Nonterminating
// The loop maps (x, y) to (2x + y, x): its eigenvalues 1 ± √2 are irrational, so no geometric
// nontermination argument with a rational eigenvalue fits. Once x >= 1 and y >= 0 hold, every
// iteration keeps them and the guard true: a recurrence set, found from a state the loop reached
// after its first iteration.
procedure main()
{
  var x, y: int;
  while (x > 0) {
    x, y := 2 * x + y, x;
  }
}
