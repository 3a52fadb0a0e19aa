//#Safe
// An `{:overapproximation}` function with a `{:concrete}` operation, applied to constants only: the
// proof search treats `band` as uninterpreted, so no invariant of the loop can say what `x` is. The
// deep search unrolls the loop; each trace it finds through `band` at values where the model
// disagrees with `&` teaches it the operation's value there (12 & 6 == 4, 4 & 6 == 4), until the
// unrolling runs out of executions: SAFE by exhaustion.
function {:overapproximation "bitwiseAnd"} {:concrete "and", 32} band(x: int, y: int) returns (int);

procedure main()
{
  var x, i: int;
  x := 12;
  i := 0;
  while (i < 3) {
    x := band(x, 6);
    i := i + 1;
  }
  assert x == 4;
}
