//#Safe
// Threads are forked in a loop and never joined, but they only count their own work in `y`,
// which nothing reads: after slicing they cannot influence anything, so their forks become skips
// and no bound on the number of thread instances is needed (compare fork_unbounded_unknown.bpl,
// whose threads write the variable the assertion reads).
var x, y : int;

procedure ULTIMATE.start()
modifies x, y;
{
  x := 0;
  while (*) {
    fork 0 worker();
    x := x + 2;
  }
  assert x % 2 == 0;
}

procedure worker()
modifies y;
{
  var k : int;
  k := 0;
  while (k < 10) {
    atomic { y := y + 1; }
    k := k + 1;
  }
}
