//#Unsafe
// Replacing a whole row loses the old entries of that row.
procedure main() { var m: [int][int]int; var r: [int]int; var i, j: int;
  m[i][j] := 3; m[i] := r; assert m[i][j] == 3; }
