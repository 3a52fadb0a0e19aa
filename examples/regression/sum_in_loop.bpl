//#Unsafe
// bodiless inc in a loop: ensures g == old(g) + 1; 10 iterations -> g == 10; assert g != 10 fails.
var g: int;
procedure inc(); modifies g; ensures g == old(g) + 1;
procedure ULTIMATE.start() modifies g; { var i: int; g := 0; i := 0; while (i < 10) { call inc(); i := i + 1; } assert g != 10; }
