//#Safe
// Division is a function: x / 0.0 is the same value twice.
procedure main() { var x, y, z: real; y := x / 0.0; z := x / 0.0; assert y == z; }
