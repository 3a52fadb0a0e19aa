//#Unsafe
procedure main() { var m: [int][int]int; var i, j: int; assume m[i] == m[j]; m[i][0] := 1; assert m[j][0] == 1; }
