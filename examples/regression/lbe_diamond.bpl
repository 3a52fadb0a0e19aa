//#Safe
// both branches make x == y.
procedure ULTIMATE.start() { var x, y: int; havoc x; havoc y; if (x > y) { x := y; } else { y := x; } assert x == y; }
