//#SyntaxError
// E0302: a type constructor applied to the wrong number of arguments.
type Pair a b;
var p: Pair int;
procedure main()
{
}
