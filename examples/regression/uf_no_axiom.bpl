//#Unsafe
// uninterpreted f, no axiom: f(0) == 1 unknown.
function f(x: int): int;
procedure ULTIMATE.start() { assert f(0) == 1; }
