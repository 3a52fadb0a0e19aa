//#SyntaxError
// E0207: an implementation of an undeclared procedure.
implementation nosuch()
{
}
