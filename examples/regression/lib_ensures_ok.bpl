//#Safe
// as above but fixed: if g <= 0 then g := 1 - g.
var g: int;
procedure f() modifies g; ensures g > 0; { if (g <= 0) { g := 1 - g; } }
