//#Unsafe
procedure main() { var m, n: [int][int]int; var i: int; n := m; n[i][0] := n[i][0]; n[i][1] := 3; assert m == n; }
