//#Unsafe
// m[i][j] := v touches only row i, but i == k possible.
procedure main() { var m: [int][int]int; var i, j, k, l: int;
  m[k][l] := 5; m[i][j] := 7; assert m[k][l] == 5; }
