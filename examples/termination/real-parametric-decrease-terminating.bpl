//#Terminating
// Over the reals no fixed amount bounds the decrease of `x` from below (`y` may be as small as
// wanted), but along one run `y` is a positive constant: `x` falls by at least `y` in every
// iteration and is non-negative before it. The ranking function's decrease is a linear term over
// the loop's constants, positive by the supporting invariant `y > 0`.
procedure main(y: real, z: real) returns (x: real)
{
  assume y > 0.0 && z > y;
  while (x >= 0.0) {
    if (*) {
      x := x - y;
    } else {
      x := x - (z - y);
    }
  }
}
