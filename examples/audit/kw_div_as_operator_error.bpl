//#SyntaxError
// Boogie 2's infix `div` is not an operator of Ultimate's dialect.
procedure main() {
  var x: int;
  x := 7 div 2;
}
