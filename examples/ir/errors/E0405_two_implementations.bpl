//#SyntaxError
// E0405: two implementations of one procedure.
procedure p();
implementation p()
{
}
implementation p()
{
}
