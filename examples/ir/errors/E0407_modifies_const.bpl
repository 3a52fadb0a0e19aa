//#SyntaxError
// E0407: a constant in a modifies clause.
const c: int;
procedure main()
  modifies c;
{
}
