//#SyntaxError
procedure main() {
  var x: bv8;
  x := 01bv8;
}
