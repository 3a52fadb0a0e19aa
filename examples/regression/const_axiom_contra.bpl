//#Safe
// contradictory axioms: everything is vacuously safe (Boogie semantics).
const a: int;
axiom a > 0;
axiom a < 0;
procedure ULTIMATE.start() { assert false; }
