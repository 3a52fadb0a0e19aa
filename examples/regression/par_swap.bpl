//#Safe
// parallel swap.
procedure ULTIMATE.start() { var x, y: int; x := 1; y := 2; x, y := y, x; assert x == 2 && y == 1; }
