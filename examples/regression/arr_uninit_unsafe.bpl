//#Unsafe
procedure main() { var a: [int]int; assert a[0] == 0; }
