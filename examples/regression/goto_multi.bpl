//#Unsafe
// goto L1, L2: L2 path sets x := 2 then assert x == 1 fails.
procedure ULTIMATE.start() { var x: int; goto L1, L2; L1: x := 1; goto End; L2: x := 2; goto End; End: assert x == 1; }
