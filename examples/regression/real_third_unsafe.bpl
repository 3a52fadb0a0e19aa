//#Unsafe
// 3 * (1/3) == 1 exactly over the reals; the loop runs 3 times: x == 1.0 after, not < 1.
procedure main() { var x: real; var n: int; x := 0.0; n := 0; while (n < 3) { x := x + 1.0 / 3.0; n := n + 1; } assert x < 1.0; }
