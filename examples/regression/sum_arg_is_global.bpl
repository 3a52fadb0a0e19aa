//#Safe
// bodiless P(x) modifies g; ensures g == x + 1. Called with argument g: x is the value before the call.
var g: int;
procedure P(x: int); modifies g; ensures g == x + 1;
procedure ULTIMATE.start() modifies g; { g := 3; call P(g); assert g == 4; }
