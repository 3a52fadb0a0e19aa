//#SyntaxError
procedure main() {
  var x: real;
  x := 01.5;
}
