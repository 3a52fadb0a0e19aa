//#Safe
// false free invariant: never checked, and blocks all paths past the head.
procedure ULTIMATE.start() { var x: int; x := 0; while (x < 10) free invariant false; { x := x + 1; } assert false; }
