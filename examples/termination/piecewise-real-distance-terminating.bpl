//#Terminating
// x moves towards the interval (-1, 1) by steps of 1 from either side. No linear function ranks
// both branches; a piecewise one over the reals, split by the loop's own comparison x >= 1 (over
// the reals the halves are `g <= 0` and `g > 0`), ranks the first branch and never increases on
// the second, which -x then ranks.
procedure main()
{
  var x: real;
  while (x >= 1.0 || x <= -1.0) {
    if (x >= 1.0) {
      x := x - 1.0;
    } else {
      x := x + 1.0;
    }
  }
}
