//#SyntaxError
// E0406: a variable assigned twice in one parallel assignment.
procedure main()
{
  var x: int;
  x, x := 1, 2;
}
