//#Unsafe
// C-like % gives -1 for -7 % 2; SMT mod gives 1.
procedure ULTIMATE.start() { var b: int; b := -7 % 2; assert b == -1; }
