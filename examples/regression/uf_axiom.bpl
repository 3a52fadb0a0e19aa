//#Safe
// uninterpreted f with axiom f(0) == 1; f(x) consistent.
function f(x: int): int;
axiom f(0) == 1;
procedure ULTIMATE.start() { var a: int; a := 0; assert f(a) == 1; }
