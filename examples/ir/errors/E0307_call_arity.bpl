//#SyntaxError
// E0307: a call with the wrong number of arguments.
procedure p(x: int);
procedure main()
{
  call p(1, 2);
}
