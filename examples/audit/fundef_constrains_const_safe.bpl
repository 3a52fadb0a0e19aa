//#Safe
// The definition is consistent only when c == 0 (f(x) = f(x) + c). The CEGAR loop's trace is not
// re-validated with the definition; the deep search, which asserts it, shows that no execution
// reaches the assertion failing.
const c: int;
function f(x: int) returns (int) { f(x) + c }

procedure main() {
  assert c == 0;
}
