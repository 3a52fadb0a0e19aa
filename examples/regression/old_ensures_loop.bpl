//#Safe
// inc ensures g == old(g) + 1 (has body). Called 3 times in a loop; each call old is fresh.
var g: int;
procedure inc() modifies g; ensures g == old(g) + 1; { g := g + 1; }
procedure ULTIMATE.start() modifies g; { var i: int; g := 0; i := 0; while (i < 3) { call inc(); i := i + 1; } assert g == 3; }
