//#SyntaxError
procedure {:msg "never closed} main()
{
}
