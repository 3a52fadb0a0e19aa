//#Terminating
// Each iteration sets the larger of x and y below the smaller one and forgets the other, so the
// minimum of x and y falls by at least one. No linear function of x and y ranks the loop (the
// forgotten variable can take any value); the piecewise linear function
// (if x <= y then x else y) does, its pieces chosen by the loop's own comparison of x and y.
procedure main()
{
  var x, y: int;
  while (x > 0 && y > 0) {
    if (x <= y) {
      y := x - 1;
      havoc x;
    } else {
      x := y - 1;
      havoc y;
    }
  }
}
