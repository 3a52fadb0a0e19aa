//#Nonterminating
// Nonterminating for x = -1, y = 4: x doubles and y triples, so x + y stays >= 1 while x <= -1.
// No state repeats (no fixpoint lasso) and fixed inputs do not enter the loop forever; a
// geometric nontermination argument with eigenvalues 3 and 2 (and a nilpotent part) shows it.
procedure main()
{
  var x, y: int;
  while (x + y >= 1 && x <= -1) {
    x := 2 * x;
    y := 3 * y;
  }
}
