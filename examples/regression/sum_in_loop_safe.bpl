//#Safe
// bodiless inc in a loop keeps g == i.
var g: int;
procedure inc(); modifies g; ensures g == old(g) + 1;
procedure ULTIMATE.start() modifies g; { var i: int; g := 0; i := 0; while (i < 10) { call inc(); i := i + 1; } assert g == 10; }
