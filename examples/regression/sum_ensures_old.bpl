//#Safe
// bodiless P: ensures g == old(g) + x (x param). g := 3; call P(4) -> g == 7.
var g: int;
procedure P(x: int); modifies g; ensures g == old(g) + x;
procedure ULTIMATE.start() modifies g; { g := 3; call P(4); assert g == 7; }
