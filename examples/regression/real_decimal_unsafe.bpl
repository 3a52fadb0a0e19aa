//#Unsafe
procedure main() { var x: real; x := 0.1 * 3.0; assert x != 0.3; }
