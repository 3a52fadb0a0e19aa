//#Safe
procedure main() { var x: real; x := 0.0; while (x < 1.0) { x := x + 0.5; } assert x == 1.0; }
