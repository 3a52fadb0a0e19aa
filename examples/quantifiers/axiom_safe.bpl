//#Safe
// A quantified axiom (f positive everywhere) proves the assertion.
function f(x: int): int;
axiom (forall x: int :: f(x) > 0);
procedure ULTIMATE.start() { assert f(3) > 0; }
