//#SyntaxError
// E0213: a type synonym that expands to itself.
type A = [int]B;
type B = A;
procedure main()
{
}
