//#Safe
// functional consistency: x / 0 evaluated twice on the same x gives the same value.
procedure ULTIMATE.start() { var x, a, b: int; havoc x; a := x / 0; b := x / 0; assert a == b; }
