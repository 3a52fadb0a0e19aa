//#Unknown solver unknown on a trace check
//#Unsafe
// A lambda captures the values its free variables have when it is evaluated: assigning `n`
// afterwards does not change the map. Known gap: the lambda's defining axiom is quantified over an
// array-valued function, for which the solvers find no model, so the violation is UNKNOWN, not
// UNSAFE (a proof of safety through lambdas works: `lambda_safe.bpl`).
procedure main() {
  var n: int;
  var m: [int]int;
  n := 1;
  m := (lambda i: int :: i + n);
  n := 2;
  assert m[0] == n;
}
