//#Unsafe
// loop with branch that havocs; reaching y == 7 possible.
procedure ULTIMATE.start() { var x, y: int; x := 0; y := 0; while (x < 3) { if (*) { havoc y; assume y < 10; } else { y := y + 1; } x := x + 1; } assert y != 7; }
