//#Unsafe
// uninterpreted predicate p: p(1) not known.
function p(x: int): bool;
axiom p(0);
procedure ULTIMATE.start() { assert p(1); }
