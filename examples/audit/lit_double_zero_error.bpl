//#SyntaxError
procedure main() {
  var x: int;
  x := 00;
}
