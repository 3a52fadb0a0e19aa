//#Unsafe
// sequential would give x == y == 2; parallel gives x == 2, y == 1. assert y == 2 fails.
procedure ULTIMATE.start() { var x, y: int; x := 1; y := 2; x, y := y, x; assert y == 2; }
