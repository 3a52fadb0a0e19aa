//#Safe
// `bv032` is not the type `bv32` written with a leading zero: by longest match it is an identifier.
procedure main() {
  var bv032: int;
  bv032 := 32;
  assert bv032 == 32;
}
