//#Unsafe
// goto into the middle of a while body (label inside loop), skipping initialization.
procedure ULTIMATE.start() { var i, y: int; i := 0; goto Inside;
  while (i < 3) { y := 1; Inside: assert y == 1; i := i + 1; } }
