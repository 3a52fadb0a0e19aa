//#Safe
// Nondeterministic branches and loops, and modular arithmetic.
procedure main()
{
  var x, y: int;
  x := 0;
  y := 0;
  while (*) {
    if (*) {
      x := x + 2;
    } else {
      x := x + 4;
    }
    y := y + 1;
  }
  assert x % 2 == 0;
  assert x >= 2 * y;
}
