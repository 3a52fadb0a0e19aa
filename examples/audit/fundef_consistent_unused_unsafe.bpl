//#Unknown counterexample could not be re-validated with the recursive function definitions
//#Unsafe
// A consistent recursive definition (f is 0 everywhere) that no statement mentions.
function f(x: int) returns (int) { if x <= 0 then 0 else f(x - 1) }

procedure main() {
  var y: int;
  y := 1;
  assert y == 2;
}
