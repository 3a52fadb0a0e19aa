//#Unsafe
type T; function f(x: T): int;
procedure main() { var x, y: T; assume f(x) == f(y); assert x == y; }
