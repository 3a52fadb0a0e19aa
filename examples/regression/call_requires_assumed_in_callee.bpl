//#Safe
// callee with body: requires assumed at entry (and checked at call site). P asserts x != 0 given requires x > 0.
procedure P(x: int) requires x > 0; { assert x != 0; }
procedure ULTIMATE.start() { call P(5); }
