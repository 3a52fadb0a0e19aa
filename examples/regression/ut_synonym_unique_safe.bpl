//#Safe
// T is a synonym of int: a and b are unique constants of the same type, hence distinct.
type T = int;
const unique a: T; const unique b: int;
procedure main() { assert a != b; }
