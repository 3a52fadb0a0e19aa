//#SyntaxError
// E0309: arithmetic on booleans.
procedure main()
{
  var b: bool;
  assert b + b;
}
