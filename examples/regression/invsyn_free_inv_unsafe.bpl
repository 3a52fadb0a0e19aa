//#Unsafe
// The checked loop invariant x >= 0 is not maintained (5, 3, 1, -1).
procedure main() { var x: int; x := 5; while (*) invariant x >= 0; { x := x - 2; } }
