//#SyntaxError
procedure {:msg "bad \q escape"} main()
{
}
