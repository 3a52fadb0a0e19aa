//#SyntaxError
// E0204: an undeclared type name.
var x: Nat;
procedure main()
{
}
