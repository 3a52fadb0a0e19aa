//#Unsafe
// non-unique constants can be equal.
const a: int;
const b: int;
procedure ULTIMATE.start() { assert a != b; }
