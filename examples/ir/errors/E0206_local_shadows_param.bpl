//#SyntaxError
// E0206: a local variable with the name of a parameter.
procedure main(x: int)
{
  var x: bool;
}
