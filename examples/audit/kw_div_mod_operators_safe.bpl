//#Safe
// Boogie 2's infix `div` and `mod` (integer division and modulus, Euclidean as in SMT-LIB: the
// remainder is never negative); right after an operand they are operators, elsewhere identifiers
// (Ultimate's dialect has no such operators and lets a variable be called `div`).
procedure main() {
  var x, div, mod: int;
  x := 7 div 2;
  assert x == 3 && 7 mod 2 == 1;
  assert -7 div 2 == -4 && -7 mod 2 == 1;
  assert 7 div -2 == -3 && 7 mod -2 == 1;
  div := x mod 2;
  mod := div div 1 + (div) mod 2;
  assert div == 1 && mod == 2;
}
