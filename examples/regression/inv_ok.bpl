//#Safe
// invariant 0 <= i <= 10 holds.
procedure ULTIMATE.start() { var i: int; i := 0; while (i < 10) invariant 0 <= i && i <= 10; { i := i + 1; } assert i == 10; }
