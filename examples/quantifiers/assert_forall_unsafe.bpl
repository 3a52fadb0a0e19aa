//#Unsafe
// quantifier in assert: not all ints positive.
procedure ULTIMATE.start() { assert (forall i: int :: i > 0); }
