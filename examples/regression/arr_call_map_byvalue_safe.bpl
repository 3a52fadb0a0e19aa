//#Safe
// Maps are values: the callee's writes to its in-parameter copy are invisible.
procedure f(a: [int]int) returns (r: int) { var b: [int]int; b := a; b[0] := 9; r := a[0]; }
procedure main() { var a: [int]int; var r: int; a[0] := 1; call r := f(a); assert r == 1 && a[0] == 1; }
