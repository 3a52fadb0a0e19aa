//#Unsafe
// inc called twice: g goes 0 -> 1 -> 2. assert g == 1 fails.
var g: int;
procedure inc() modifies g; { g := g + 1; }
procedure ULTIMATE.start() modifies g; { g := 0; call inc(); call inc(); assert g == 1; }
