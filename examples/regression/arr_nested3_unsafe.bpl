//#Unsafe
procedure main() { var m: [int][int][int]int; var i, j, k: int;
  m[0][0][0] := 1; m[i][j][k] := 2; assert m[0][0][0] == 1; }
