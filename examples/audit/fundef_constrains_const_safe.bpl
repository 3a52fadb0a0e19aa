//#Unknown counterexample could not be re-validated with the recursive function definitions
//#Safe
// The definition is consistent only when c == 0 (f(x) = f(x) + c).
const c: int;
function f(x: int) returns (int) { f(x) + c }

procedure main() {
  assert c == 0;
}
