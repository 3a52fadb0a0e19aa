//#Safe
// Boogie's conversions int(e) (floor of a real) and real(e), and a type coercion (e : T).
procedure main()
{
  var n: int;
  var half: real;
  assume n >= 0;
  half := real(n) / 2.0;
  assert int(half) * 2 <= n;
  assert int(half) * 2 >= n - 1;
  assert (real(int(half)) : real) <= half;
}
