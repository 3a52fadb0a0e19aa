//#SyntaxError
procedure main(a: int, b: int, c: int)
{
  assert a < b < c;
}
