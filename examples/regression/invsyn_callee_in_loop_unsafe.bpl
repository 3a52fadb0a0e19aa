//#Unsafe
// Callee local i is arbitrary at each call; not kept from the previous call.
var g: int;
procedure f() modifies g; { var i: int; if (g == 0) { i := 7; } g := g + 1; assert i == 7; }
procedure ULTIMATE.start() modifies g; { g := 0; while (g < 3) { call f(); } }
