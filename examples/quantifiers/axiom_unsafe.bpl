//#Unsafe
// quantified axiom: f(x) > 0 for all x; assert f(3) > 5 fails (f could be 1).
function f(x: int): int;
axiom (forall x: int :: f(x) > 0);
procedure ULTIMATE.start() { assert f(3) > 5; }
