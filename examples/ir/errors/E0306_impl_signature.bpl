//#SyntaxError
// E0306: an implementation whose signature differs from its procedure.
procedure p(x: int);
implementation p(x: int, y: int)
{
}
