//#Safe
type T; const unique a, b: T; function f(x: T): int;
axiom f(a) == 1; axiom f(b) == 2;
procedure main() { var x: T; assume f(x) == 1; assert x != b; }
