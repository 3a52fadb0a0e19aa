//#Unsafe
// x < 1.0 at the head does not give x <= 0 (integer-style reasoning would).
procedure main() { var x: real; x := 0.0; while (*) { if (x < 1.0) { x := x + 0.5; } } assert x != 0.5; }
