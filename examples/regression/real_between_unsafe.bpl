//#Unsafe
// There is a real strictly between 0 and 1.
procedure main() { var x: real; assume 0.0 < x && x < 1.0; assert false; }
