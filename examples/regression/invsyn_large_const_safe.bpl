//#Safe
procedure main() { var x: int; x := 0;
  while (*) { x := x + 1000000007; }
  assert x % 1000000007 == 0 || x >= 0; }
