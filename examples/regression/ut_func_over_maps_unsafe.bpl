//#Unsafe
function sum(m: [int]int): int;
procedure main() { var m, n: [int]int; n := m; n[0] := n[0] + 1; assert sum(m) != sum(n); }
