//#Unsafe
// goto loop counting to 50; assertion at i == 50 fails (needs 50 iterations).
procedure ULTIMATE.start() { var i: int; i := 0; Head: if (i < 50) { i := i + 1; goto Head; } assert i != 50; }
