//#Safe
// Two threads multiply by repeated addition, x * y and x (as x * 1); their sum is x * (y + 1).
// The proof is non-linear: `z == i * b` in each thread's loop and, after the joins, `z1 == x * y`
// (Houdini's products over the configurations), which no linear interpolant of an unrolled trace
// generalises to.
procedure ULTIMATE.start()
{
  var x, y, one, z1, z2 : int;
  assume x >= 0;
  one := 1;
  fork 1 mult(x, y);
  fork 2 mult(x, one);
  join 1 assign z1;
  join 2 assign z2;
  assert z1 + z2 == x * (y + 1);
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
