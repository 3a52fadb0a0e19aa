//#SyntaxError
// E0211: break to a label that does not enclose it.
procedure main()
{
  L: assume true;
  while (true) {
    break L;
  }
}
