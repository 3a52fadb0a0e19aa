//#Safe
// library: requires g == 5; old(g) == 5 in body.
var g: int;
procedure f() modifies g; requires g == 5; ensures g == old(g) * 2; { g := g + 5; }
