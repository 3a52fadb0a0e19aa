//#Safe
// both targets set x to 1 or 3; assert odd via x mod 2 == 1.
procedure ULTIMATE.start() { var x: int; goto L1, L2; L1: x := 1; goto End; L2: x := 3; goto End; End: assert x % 2 == 1; }
