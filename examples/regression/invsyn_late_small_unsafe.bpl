//#Unsafe
// Fails only after 12 iterations.
procedure main() { var i, j: int; i := 0; j := 0;
  while (i < 100) { i := i + 1; j := j + 2; assert j != 24; } }
