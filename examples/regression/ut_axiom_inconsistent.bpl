//#Safe
// Inconsistent axioms: every program is vacuously safe (Ultimate answers correct/safe as well).
const c: int; axiom c > 0; axiom c < 0;
procedure main() { assert false; }
