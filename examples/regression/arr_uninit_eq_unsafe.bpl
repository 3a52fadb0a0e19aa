//#Unsafe
procedure main() { var a, b: [int]int; assert a == b; }
