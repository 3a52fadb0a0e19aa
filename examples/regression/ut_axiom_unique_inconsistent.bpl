//#Safe
// Axiom contradicts uniqueness.
type T; const unique a, b: T; axiom a == b;
procedure main() { assert false; }
