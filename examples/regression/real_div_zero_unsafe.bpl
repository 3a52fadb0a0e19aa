//#Unsafe
// x / 0.0 is some unspecified real; nothing forces it to be 0.
procedure main() { var x, y: real; y := x / 0.0; assert y == 0.0; }
