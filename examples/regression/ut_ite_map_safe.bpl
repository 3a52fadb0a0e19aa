//#Safe
procedure main() { var a, b, c: [int]int; var f: bool; a[0] := 1; b[0] := 2; c := if f then a else b; assert c[0] == 1 <==> f; }
