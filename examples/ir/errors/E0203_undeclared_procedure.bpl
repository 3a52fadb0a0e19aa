//#SyntaxError
// E0203: call of an undeclared procedure.
procedure main()
{
  call nosuch(1);
}
