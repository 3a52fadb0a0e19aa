//#Unsafe
// As relational-sum-safe.bpl, but the second loop may skip a decrement: invariants must not hide
// the violation.
procedure main()
{
  var x, y, z, n: int;
  assume n == x && y == 0 && z == 0;
  while (x != 0) {
    if (*) { x := x + 1; y := y - 1; }
    if (*) { x := x - 1; z := z + 1; }
  }
  while (n != 0) {
    if (*) { y := y - 1; } else if (*) { z := z - 1; }
    n := n - 1;
  }
  assert y + z == 0;
}
