//#Safe
// unique constants are distinct.
const unique a: int;
const unique b: int;
procedure ULTIMATE.start() { assert a != b; }
