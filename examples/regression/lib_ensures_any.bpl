//#Unsafe
// library: g arbitrary at entry of f; ensures g > 0 fails when g <= 0 initially and no change.
var g: int;
procedure f() modifies g; ensures g > 0; { if (g < 0) { g := -g; } }
