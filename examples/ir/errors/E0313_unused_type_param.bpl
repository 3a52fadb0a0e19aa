//#SyntaxError
// E0313: a function type parameter that no argument type mentions.
function empty<a>() returns (a);
procedure main()
{
}
