//#Unsafe
// invariant i != 40 maintained only until i reaches 40 (needs 40 iterations).
procedure ULTIMATE.start() { var i: int; i := 0; while (i < 100) invariant i != 40; { i := i + 1; } }
