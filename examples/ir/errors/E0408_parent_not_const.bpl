//#SyntaxError
// E0408: the parent in a `<:` order specification is a variable.
var v: int;
const c: int <: v;
procedure main()
{
}
