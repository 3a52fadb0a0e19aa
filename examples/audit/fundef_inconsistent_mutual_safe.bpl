//#Safe
// Mutually recursive definitions that contradict each other.
function f(x: int) returns (int) { g(x) + 1 }
function g(x: int) returns (int) { f(x) }

procedure main() {
  var y: int;
  y := 1;
  assert y == 2;
}
