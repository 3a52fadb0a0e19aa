//#SyntaxError
// E0403: assignment to an in-parameter.
procedure main(x: int)
{
  x := 1;
}
