//#SyntaxError
// E0310: selecting a field the record does not have.
procedure main()
{
  var p: { x: int, y: int };
  assert p!z == 0;
}
