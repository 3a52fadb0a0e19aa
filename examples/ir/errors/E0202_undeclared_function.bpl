//#SyntaxError
// E0202: application of an undeclared function (here a procedure name).
procedure p() returns (r: int);
procedure main()
{
  var x: int;
  x := p();
}
