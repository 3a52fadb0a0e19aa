//#Unsafe
// Non-recursive definitions are always consistent: an unused one changes nothing.
function f(x: int) returns (int) { x + 1 }
function g(x: int) returns (int) { f(x) * 2 }

procedure main() {
  var y: int;
  y := 1;
  assert y == 2;
}
