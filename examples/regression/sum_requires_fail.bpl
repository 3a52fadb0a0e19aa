//#Unsafe
// bodiless P requires x > 0; called with 0: requires violated at call site.
procedure P(x: int); requires x > 0;
procedure ULTIMATE.start() { call P(0); }
