//#Unsafe
// ensures g == old(g) + 1 but body adds 2 when g > 5. start calls with g := 10.
var g: int;
procedure inc() modifies g; ensures g == old(g) + 1; { if (g > 5) { g := g + 2; } else { g := g + 1; } }
procedure ULTIMATE.start() modifies g; { g := 10; call inc(); }
