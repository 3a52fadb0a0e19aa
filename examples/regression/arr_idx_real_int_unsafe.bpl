//#Unsafe
procedure main() { var a: [int]real; var i: int; a[i] := 0.5; a[i+1] := a[i] / 0.0; assert a[i+1] == 0.0; }
