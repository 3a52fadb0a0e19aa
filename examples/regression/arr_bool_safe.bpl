//#Safe
procedure main() { var f: [int]bool; var i, j: int; f[i] := true; f[j] := !f[i]; assert f[i] || i == j; assert !f[j]; }
