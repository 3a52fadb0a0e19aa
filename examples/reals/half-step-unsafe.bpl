//#Unsafe
// Over the integers this would be safe; over the reals `i` may start at 999.5.
procedure main() {
  var i : real;
  while (i <= 999.0) {
    i := i + 1.0;
  }
  assert i >= 1000.0;
}
