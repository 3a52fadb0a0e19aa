//#SyntaxError
procedure main() returns (r: int)
{
  r := 1;
}
}
