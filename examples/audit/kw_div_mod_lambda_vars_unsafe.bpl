//#Unsafe
// `div`, `mod` and `lambda` are identifiers in Ultimate's dialect (they are not in its keyword table).
procedure main() {
  var div, mod, lambda: int;
  div := 7 / 2;
  mod := 7 % 2;
  lambda := div + mod;
  assert lambda == 3;
}
