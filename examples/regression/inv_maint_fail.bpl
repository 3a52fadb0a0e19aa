//#Unsafe
// invariant holds on entry (i == 0) but not maintained (i := i + 1 gives i == 1 when loop runs: i < 5).
procedure ULTIMATE.start() { var i: int; i := 0; while (i < 5) invariant i <= 0; { i := i + 1; } }
