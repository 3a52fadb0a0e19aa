//#Unsafe
// x > 0 does not imply x >= 1 over the reals.
procedure main() { var x: real; assume x > 0.0; assert x >= 1.0; }
