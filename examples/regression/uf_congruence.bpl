//#Safe
// congruence: x == y ==> f(x) == f(y).
function f(x: int): int;
procedure ULTIMATE.start() { var x, y: int; havoc x; y := x; assert f(x) == f(y); }
