//#SyntaxError
// E0305: indexing a value that is not a map.
procedure main()
{
  var x: int;
  assert x[0] == 0;
}
