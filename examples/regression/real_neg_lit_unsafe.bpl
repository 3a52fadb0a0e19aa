//#Unsafe
procedure main() { var x: real; x := -0.5; assert x * x == -0.25; }
