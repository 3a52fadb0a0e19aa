//#Unsafe
procedure main() { var x, y: real; x := 0.0; y := 0.0; while (*) { x := x + 0.5; y := y + 1.0; } assert y == x + x + 0.0 && y != 1.0; }
