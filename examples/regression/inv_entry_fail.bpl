//#Unsafe
// invariant fails on entry (i == 1 but invariant i == 0 ... ), maintained trivially? i := i stays. entry violation.
procedure ULTIMATE.start() { var i: int; i := 1; while (i < 0) invariant i == 0; { } }
