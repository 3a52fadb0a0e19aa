//#Safe
// `0`, `0.5`, `10`, `100` are literals; a leading zero only on `0` itself.
procedure main() {
  var x: int;
  var y: real;
  x := 0 + 10 + 100;
  y := 0.5 + 0.05;
  assert x == 110;
  assert y == 0.55;
}
