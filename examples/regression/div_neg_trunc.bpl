//#Unsafe
// C-like truncation would give -7/2 == -3; SMT gives -4. assert -3 fails.
procedure ULTIMATE.start() { var a: int; a := -7 / 2; assert a == -3; }
