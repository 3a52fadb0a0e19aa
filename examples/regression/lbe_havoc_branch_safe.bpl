//#Safe
// havoc then assume in one branch, assignment in the other.
procedure ULTIMATE.start() { var x: int; if (*) { havoc x; assume x > 10; } else { x := 0; } assert x == 0 || x > 10; }
