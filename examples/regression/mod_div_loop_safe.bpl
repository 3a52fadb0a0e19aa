//#Safe
// invariant x mod 3 == 2 (Euclidean mod of negative numbers).
procedure ULTIMATE.start() { var x: int; x := -10; while (x <= 0) { x := x + 3; } assert x % 3 == 2 && x == 2; }
