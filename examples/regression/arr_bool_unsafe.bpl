//#Unsafe
procedure main() { var f: [int]bool; var i, j: int; f[i] := true; f[j] := false; assert f[i]; }
