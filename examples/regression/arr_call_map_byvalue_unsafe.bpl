//#Unsafe
procedure f(a: [int]int) returns (b: [int]int) { b := a; b[0] := 9; }
procedure main() { var a, c: [int]int; a[0] := 1; call c := f(a); assert c[0] == 1; }
