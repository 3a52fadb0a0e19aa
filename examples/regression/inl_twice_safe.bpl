//#Safe
// inc called twice: g == 2.
var g: int;
procedure inc() modifies g; { g := g + 1; }
procedure ULTIMATE.start() modifies g; { g := 0; call inc(); call inc(); assert g == 2; }
