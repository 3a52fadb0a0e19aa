//#Terminating
// The step d is fixed but its sign is not: for d > 0 the loop ends because a grows, for d < 0
// because b grows, and no single linear function ranks both. The disequality `d != 0` splits into
// the two cases `d < 0` and `d > 0`, each a lasso with its own ranking function and supporting
// invariant (the Büchi loop; tests/cli.rs runs it alone). By default the loop is ranked first as a
// whole: piecewise by the sign of d, with supporting invariants.
procedure main()
{
  var a, b, d: int;
  assume d != 0;
  while (a < 100 && b < 100) {
    a := a + d;
    b := b - d;
  }
}
