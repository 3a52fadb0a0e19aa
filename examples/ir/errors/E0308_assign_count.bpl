//#SyntaxError
// E0308: a parallel assignment with more targets than values.
procedure main()
{
  var x, y: int;
  x, y := 1;
}
