//#Unsafe
// Halving never reaches 0 but gets below any bound: after 7 halvings x < 0.01.
procedure main() { var x: real; x := 1.0; while (x >= 0.01) { x := x / 2.0; } assert x > 0.005 && x < 0.01 && x == 0.0078125 && false; }
