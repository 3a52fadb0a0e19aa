//#SyntaxError
// E0401: assignment to a global that is not in the modifies clause.
var g: int;
procedure main()
{
  g := 1;
}
