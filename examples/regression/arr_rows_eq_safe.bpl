//#Safe
procedure main() { var m: [int][int]int; var i, j: int; assume m[i] == m[j]; m[i][0] := m[j][0]; assert m[i] == m[j]; }
