//#SyntaxError
// E0301: an int where a real is expected.
procedure main()
{
  var r: real;
  r := 1;
}
