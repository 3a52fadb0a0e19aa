//#Safe
const m: [int]int; axiom m[0] == 1;
procedure main() { var a: [int]int; a := m; a[1] := 2; assert a[0] == 1; }
