//#Safe
// plain break leaves only the inner loop; outer completes: i == 10 at end, j == 3.
procedure ULTIMATE.start() { var i, j: int; i := 0;
  while (i < 10) { j := 0; while (j < 10) { if (j == 3) { break; } j := j + 1; } i := i + 1; }
  assert i == 10 && j == 3; }
