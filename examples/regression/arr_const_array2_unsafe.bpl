//#Unsafe
function {:const_array} K2(v: int) returns ([int,int]int);
procedure main() { var a: [int,int]int; var i, j, k: int; a := K2(0); a[i,j] := 1; assert a[k,j] == 0; }
