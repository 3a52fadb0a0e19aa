//#Safe
// Labels, goto with two targets, break (innermost and labelled), return.
procedure main()
{
  var x, y: int;
  x := 0;
  goto A, B;
A:
  x := 1;
  goto C;
B:
  x := 2;
C:
  assert x == 1 || x == 2;
  outer: while (true) {
    while (*) {
      y := y + 1;
      if (y > 10) { break outer; }
      break;
    }
    if (x > 0) { break; }
  }
  if (*) { return; } else { x := 3; }
  assert x == 3;
}
