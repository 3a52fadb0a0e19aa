//#Safe
// functional consistency: x div 0 evaluated twice on the same x gives the same value.
procedure ULTIMATE.start() { var x, a, b: int; havoc x; a := x div 0; b := x div 0; assert a == b; }
