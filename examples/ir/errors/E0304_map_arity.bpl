//#SyntaxError
// E0304: a map indexed with the wrong number of indices.
procedure main()
{
  var m: [int]int;
  assert m[1, 2] == 0;
}
