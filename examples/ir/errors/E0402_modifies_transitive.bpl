//#SyntaxError
// E0402: calling a procedure that modifies more than the caller may.
var g: int;
procedure set()
  modifies g;
{
  g := 1;
}
procedure main()
{
  call set();
}
