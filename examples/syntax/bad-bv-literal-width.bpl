//#SyntaxError
procedure main()
{
  var x: bv32;
  x := 5bv;
}
