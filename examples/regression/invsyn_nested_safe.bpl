//#Safe
procedure main() { var i, j, c: int; i := 0; c := 0;
  while (i < 3) { j := 0; while (j < 2) { c := c + 1; j := j + 1; } i := i + 1; }
  assert c == 2 * i; }
