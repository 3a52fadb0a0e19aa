//#Safe
// free invariant is assumed at the head (not checked): x == 42 is assumed even though false; so assert after loop holds.
// Semantics: head: assume x == 42 (free); the loop exit path passes through that assume, so x == 42 at the assert.
procedure ULTIMATE.start() { var x: int; x := 0; while (*) free invariant x == 42; { } assert x == 42; }
