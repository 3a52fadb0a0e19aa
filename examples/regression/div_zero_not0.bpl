//#Unsafe
// 5 div 0 is unspecified in SMT (not 0); assert 5 div 0 == 0 may fail.
procedure ULTIMATE.start() { var a: int; a := 5 / 0; assert a == 0; }
