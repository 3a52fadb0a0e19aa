//#Safe
type T; function f(x: T): int;
procedure main() { var x, y: T; assume x == y; assert f(x) == f(y); }
