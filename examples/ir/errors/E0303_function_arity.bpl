//#SyntaxError
// E0303: a function applied to the wrong number of arguments.
function f(int, int): int;
procedure main()
{
  assert f(1) == 2;
}
