//#Safe
procedure main() { var a: [real]int; var x: real; a[x] := 1; a[x + 0.5] := 2; assert a[x] == 1; }
