//#SyntaxError
// E0311: extracting bits beyond the width of a bit-vector.
procedure main()
{
  var x: bv8;
  assert x[16:0] == 0bv16;
}
