//#Safe
// free requires is not checked at the call site.
procedure P(x: int); free requires x > 0;
procedure ULTIMATE.start() { call P(0); }
