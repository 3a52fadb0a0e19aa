//#Unsafe
// call-site requires with argument expressions: P(a + 1) requires n > 5; a = 4 gives 5 > 5 false.
procedure P(n: int) requires n > 5; { }
procedure ULTIMATE.start() { var a: int; a := 4; call P(a + 1); }
