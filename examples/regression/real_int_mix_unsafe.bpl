//#Unsafe
// Not an integer-valued variable: y may be 0.5.
procedure main() { var y: real; havoc y; assume y > 0.0 && y < 1.0; assert y * 2.0 == 1.0; }
