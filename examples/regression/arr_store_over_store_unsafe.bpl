//#Unsafe
procedure main() { var a, b: [int]int; var i, j: int;
  b := a; a[i] := 1; a[j] := b[j]; assert a == b; }
