//#SyntaxError
procedure main()
{
  var x: int;
  x := 1
  x := 2;
}
