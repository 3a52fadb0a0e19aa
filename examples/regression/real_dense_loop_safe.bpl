//#Safe
procedure main() { var x: real; x := 1.0; while (x >= 0.01) { x := x / 2.0; } assert x > 0.0; }
