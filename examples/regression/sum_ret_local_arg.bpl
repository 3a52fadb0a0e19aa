//#Unsafe
// call x := P(x) with ensures r == x + 1 (x is param): x becomes old x + 1 = 6; assert x == 5 fails.
procedure P(x: int) returns (r: int); ensures r == x + 1;
procedure ULTIMATE.start() { var x: int; x := 5; call x := P(x); assert x == 5; }
