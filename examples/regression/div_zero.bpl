//#Unsafe
// x div 0 is an uninterpreted value in SMT, but the same term is equal to itself; (1 div 0) == (2 div 0) not necessarily. assert fails.
procedure ULTIMATE.start() { var a, b: int; a := 1 / 0; b := 2 / 0; assert a == b; }
