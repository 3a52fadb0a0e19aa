//#SyntaxError
var x: int;
procedure main()
{
  x := x @ 1;
}
