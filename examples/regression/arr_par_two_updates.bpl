//#Unsafe
// Parallel assignment to two different maps whose rhs read each other.
procedure main() { var a, b: [int]int; a[0] := 1; b[0] := 2; a[0], b[0] := b[0], a[0]; assert a[0] == 1; }
