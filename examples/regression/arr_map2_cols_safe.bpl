//#Safe
procedure main() { var m: [int][int]int; var i, j, l: int;
  assume j != l; m[i][l] := 5; m[i][j] := 7; assert m[i][l] == 5 && m[i][j] == 7; }
