//#Unsafe
// Boogie 2's `div` rounds towards negative infinity for a positive divisor (Euclidean division), not
// towards zero as C's `/`: -7 div 2 is -4.
procedure main() {
  var x: int;
  x := -7;
  assert x div 2 == -3;
}
