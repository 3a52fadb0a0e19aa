//#Safe
procedure main() { var m, n: [int][int]int; var i: int; n := m; n[i][0] := n[i][0]; assert m == n; n[i+1] := m[i+1]; assert m == n; }
