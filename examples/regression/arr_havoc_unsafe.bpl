//#Unsafe
procedure main() { var a: [int]int; a[0] := 1; havoc a; assert a[0] == 1; }
