//#Unsafe
// intermediate x: y := x (x>5), x := 0; assert y == 0 fails.
procedure ULTIMATE.start() { var x, y: int; havoc x; assume x > 5; y := x; x := 0; assert y == x; }
