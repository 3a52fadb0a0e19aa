//#Safe
// x written twice in sequence; intermediate value matters for y.
procedure ULTIMATE.start() { var x, y: int; havoc x; assume x > 5; y := x; x := x + 1; havoc x; x := y + 1; assert x > 6 && y > 5; }
