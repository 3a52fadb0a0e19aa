//#Unsafe
// break L where L labels an enclosing while but break from doubly nested if.
procedure ULTIMATE.start() { var i, j: int; i := 0; j := 0;
  L: while (i < 5) { if (i == 2) { if (j == 0) { j := 9; break L; } } i := i + 1; }
  assert j != 9; }
