//#SyntaxError
// E0301: a bool assigned to an int.
procedure main()
{
  var x: int;
  x := true;
}
