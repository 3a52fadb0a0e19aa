//#SyntaxError
// E0209: the same label twice in one body.
procedure main()
{
  L: assume true;
  L: assume true;
}
