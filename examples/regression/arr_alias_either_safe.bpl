//#Safe
procedure main() { var a: [int]int; var i, j: int;
  a[i] := 1; a[j] := 2; assert a[i] == 1 || a[i] == 2; assert a[j] == 2; }
