//#Safe
procedure main() { var x: int; x := 0;
  while (*) { x := x + 3; }
  assert x % 3 == 0; }
