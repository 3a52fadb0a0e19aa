//#Terminating
// The loop body never runs twice in a row: from 0 <= x <= 1, x := 3 * x - 1 leaves [0, 1] (x
// becomes -1 or 2). No linear function decreases here (over the reals the guard allows 0 <= x <= 1
// and 3 * x - 1 is not below x - 1 everywhere), so the argument is that two steps are infeasible.
procedure main()
{
  var x: int;
  while (x >= 0 && x <= 1) {
    x := 3 * x - 1;
  }
}
