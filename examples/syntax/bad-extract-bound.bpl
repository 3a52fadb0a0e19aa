//#SyntaxError
procedure main(x: bv64)
{
  assert x[99999999999:0] == x;
}
