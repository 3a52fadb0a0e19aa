//#Unsafe
type Token;
procedure main() {
  var a, b, c: Token;
  a := b;
  b := c;
  assert a == b;
}
