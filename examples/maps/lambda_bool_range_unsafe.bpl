//#Unsafe
// A Boolean-valued lambda: the range [0, n) does not contain n.
procedure main(n: int) {
  var inRange: [int]bool;
  assume n > 5;
  inRange := (lambda i: int :: 0 <= i && i < n);
  assert inRange[n - 1];
  assert inRange[n];
}
