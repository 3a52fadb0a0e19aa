//#SyntaxError
// E0404: old outside of a procedure.
var g: int;
axiom old(g) == 0;
procedure main()
{
}
