//#Unsafe
// break L out of nested loops: after break, i == 0 and j == 3; assert j != 3 fails.
procedure ULTIMATE.start() { var i, j: int; i := 0;
  Outer: while (i < 10) { j := 0; while (j < 10) { if (j == 3) { break Outer; } j := j + 1; } i := i + 1; }
  assert j != 3; }
