//#SyntaxError
// E0201: use of an undeclared variable.
procedure main()
{
  var x: int;
  x := y + 1;
}
