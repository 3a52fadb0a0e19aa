//#Unsafe
// x takes 0, 0.5: 0.5 < 1 so the loop runs twice, x == 1.0 at exit; but assert x == 0.5 fails.
procedure main() { var x: real; x := 0.0; while (x < 1.0) { x := x + 0.5; } assert x == 0.5; }
