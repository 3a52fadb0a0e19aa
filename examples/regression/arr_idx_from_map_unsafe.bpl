//#Unsafe
procedure main() { var a: [int]int; var i: int; a[i] := i; a[a[i]] := 5; assert a[i] == i; }
