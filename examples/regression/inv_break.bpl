//#Safe
// break skips the invariant maintenance check (break jumps past the head). Invariant i < 3 would fail after i := 3 but break leaves first.
procedure ULTIMATE.start() { var i: int; i := 0; while (true) invariant i < 3; { i := i + 1; if (i == 3) { break; } } assert i == 3; }
