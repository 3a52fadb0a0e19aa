//#Unsafe
procedure main() { var m: [int,int]int; var i, j, k, l: int;
  assume i == k || j == l; m[k,l] := 5; m[i,j] := 7; assert m[k,l] == 5; }
