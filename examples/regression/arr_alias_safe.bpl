//#Safe
procedure main() { var a: [int]int; var i, j: int;
  assume i != j; a[i] := 1; a[j] := 2; assert a[i] == 1; }
