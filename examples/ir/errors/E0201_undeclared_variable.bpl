//#SyntaxError
// E0201: use of an undeclared variable (a near miss of a declared one).
procedure main()
{
  var count: int;
  count := cuont + 1;
}
