//#SyntaxError
procedure main(a: bool, b: bool, c: bool)
{
  assert a ==> b <== c;
}
