//#Safe
function {:const_array} K(v: int) returns ([int]int);
procedure main() { var a: [int]int; var i, j: int; a := K(3); a[i] := 4; assert a[j] == 3 || j == i; assert a[i] == 4; }
