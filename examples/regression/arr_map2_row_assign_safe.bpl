//#Safe
procedure main() { var m: [int][int]int; var r: [int]int; var i, j: int;
  r[j] := 3; m[i] := r; assert m[i][j] == 3; m[i+1][j] := 4; assert m[i][j] == 3; }
