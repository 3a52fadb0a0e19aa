//#Unsafe
// One unique constant per instance type: uniqueness says nothing about x, y of Box bool.
type Box a;
const unique a: Box int; const unique c: Box bool;
function f(x: Box int): int; function g(x: Box bool): int;
procedure main() { var x: Box bool; assert x != c; }
