//#Safe
procedure main() { var a, b: [int]int; var i: int; assume a == b; a[i] := a[i] + 0; assert a[i+1] == b[i+1] && a == b; }
