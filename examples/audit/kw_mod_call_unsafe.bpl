//#Unsafe
procedure ULTIMATE.start() {
  var x: int;
  call x := mod(9);
  assert x == 9;
}

procedure mod(lambda: int) returns (div: int) {
  div := lambda % 4;
}
