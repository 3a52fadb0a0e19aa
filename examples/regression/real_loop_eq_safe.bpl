//#Safe
// Karr-style over reals: y == 2x holds (reals are not in Karr's variables; must still be proved).
procedure main() { var x, y: real; x := 0.0; y := 0.0; while (*) { x := x + 0.5; y := y + 1.0; } assert y == 2.0 * x; }
