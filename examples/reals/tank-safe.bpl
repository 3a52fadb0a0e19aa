//#Safe
// A tank filled in steps of 0.5 up to its capacity of 10.0 (real arithmetic).
procedure main() {
  var level, step : real;
  level := 0.0;
  step := 0.5;
  while (level <= 9.5) {
    level := level + step;
  }
  assert level <= 10.0;
  assert level > 9.5;
}
