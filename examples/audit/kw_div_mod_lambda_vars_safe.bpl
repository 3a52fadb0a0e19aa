//#Safe
procedure main() {
  var div, mod, lambda: int;
  div := 7 / 2;
  mod := 7 % 2;
  lambda := div + mod;
  assert lambda == 4;
}
