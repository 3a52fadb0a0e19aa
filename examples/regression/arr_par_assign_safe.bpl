//#Safe
procedure main() { var a: [int]int; var x: int; a[0] := 5; x, a[0] := a[0], 1; assert x == 5 && a[0] == 1; }
