//#Safe
// x, y := x + y, x - y with x=3,y=1 -> x=4, y=2 (rhs uses old values).
procedure ULTIMATE.start() { var x, y: int; x := 3; y := 1; x, y := x + y, x - y; assert x == 4 && y == 2; }
