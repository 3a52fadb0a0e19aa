//#Unknown unsupported: quantifiers
//#Safe
// quantified axiom makes assert true; UNKNOWN acceptable, SAFE correct.
function f(x: int): int;
axiom (forall x: int :: f(x) > 0);
procedure ULTIMATE.start() { assert f(3) > 0; }
