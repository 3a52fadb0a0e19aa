//#Unsafe
// As mult_pair_safe.bpl, but the sum is claimed to be y * (x + 1): false whenever x != y.
procedure ULTIMATE.start()
{
  var x, y, one, z1, z2 : int;
  assume x >= 0;
  one := 1;
  fork 1 mult(x, y);
  fork 2 mult(x, one);
  join 1 assign z1;
  join 2 assign z2;
  assert z1 + z2 == y * (x + 1);
}

procedure mult(a : int, b : int) returns (z : int)
{
  var i : int;
  z := 0;
  i := 0;
  while (i < a) {
    z := z + b;
    i := i + 1;
  }
}
