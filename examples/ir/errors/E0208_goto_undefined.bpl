//#SyntaxError
// E0208: goto to a label that does not exist.
procedure main()
{
  goto Nowhere;
}
