//#Terminating
// Over the reals, x - y == 5 holds at the loop head (Karr's affine equalities are computed over the
// reals too). The body sets y to 2y - x and x to the mean of the new y and the old x, which is the
// old y: with the supporting invariant, x falls by 5 per iteration (without it, the templates find
// no ranking function).
procedure main()
{
  var x, y: real;
  x := y + 5.0;
  while (x >= 0.0) {
    y := 2.0 * y - x;
    x := (y + x) / 2.0;
  }
}
