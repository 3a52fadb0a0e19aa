//#Terminating
// `x % 4` counts down to 0: the loop runs at most three times in a row, whatever x is. No linear
// ranking function over the rationals shows it (x is unbounded, and over the rationals the
// remainder need not fall by a whole step), so the prover asks instead whether four iterations
// in a row are feasible: over the integers they are not.
procedure main()
{
  var x: int;
  while (x % 4 >= 1) {
    x := x - 1;
  }
}
