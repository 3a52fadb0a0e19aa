//#Unsafe
// i == j possible: the second store overwrites the first.
procedure main() { var a: [int]int; var i, j: int;
  a[i] := 1; a[j] := 2; assert a[i] == 1; }
