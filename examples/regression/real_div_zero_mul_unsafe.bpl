//#Unsafe
procedure main() { var x, y: real; assume x != 0.0; y := x / 0.0; assert y * 0.0 == x; }
