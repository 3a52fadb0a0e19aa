//#SyntaxError
// E0210: break outside of any loop.
procedure main()
{
  break;
}
