//#Safe
// old(g) where g is a parameter shadowing the global.
var g: int;
procedure p(g: int) requires g == 7; { assert old(g) == 7; }
procedure ULTIMATE.start() modifies g; { g := 1; call p(7); }
