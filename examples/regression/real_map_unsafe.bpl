//#Unsafe
procedure main() { var a: [int]real; var i, j: int; a[i] := 0.5; a[j] := 1.5; assert a[i] < 1.0; }
