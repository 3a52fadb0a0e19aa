//#Safe
var g: int;
procedure inc(n: int) modifies g; requires n >= 0; { var i: int; i := 0; while (i < n) { i := i + 1; g := g + 1; } }
procedure ULTIMATE.start() modifies g; { g := 0; call inc(3); assert g == 3; call inc(2); assert g == 5; }
