//#SyntaxError
// The width of a bit-vector literal is a decimal literal too: `5bv08` has a leading zero.
var x: bv8;
procedure main()
  modifies x;
{
  x := 5bv08;
}
