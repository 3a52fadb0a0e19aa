//#Safe
procedure main() {
  var x, y : real;
  assume x >= 1.0 && x <= 3.0;
  y := x / 4.0;
  assert y >= 0.25 && y <= 0.75;
  assert 3.0 * (x / 3.0) == x;
}
