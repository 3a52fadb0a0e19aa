//#Safe
procedure main() { var a, b: [int]int; a[0] := 1; b := a; havoc a; assert b[0] == 1; }
