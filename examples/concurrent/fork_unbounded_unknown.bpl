//#Unknown unbounded threads: a fork needs more than 4 thread instances
//#Safe
// Threads are forked in a loop and never joined: any number of them may run at once, so no
// fixed number of thread instances covers every execution.
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  while (*) {
    fork 0 worker();
  }
  assert x >= 0;
}

procedure worker()
modifies x;
{
  atomic { x := x + 1; }
}
