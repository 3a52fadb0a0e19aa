//#Safe
// Boogie 2's lambda expressions: map values defined pointwise, capturing variables and old values
// (lifted to functions with a defining axiom each).
var g: int;

procedure main(n: int) returns ()
modifies g;
{
  var zero, shifted, squares: [int]int;
  var inRange: [int]bool;
  zero := (lambda i: int :: 0);
  assert zero[42] == 0;
  shifted := (lambda i: int :: i + n);
  assert shifted[3] == 3 + n;
  inRange := (lambda i: int :: 0 <= i && i < n);
  assume n > 5;
  assert inRange[5] && !inRange[n];
  g := g + 1;
  squares := (lambda i: int :: i * i + old(g));
  assert squares[2] == 4 + g - 1;
  assert (lambda x: int, y: int :: x + y)[1, 2] == 3;
}
