//#Safe
// Threads are forked in a loop and never joined: any number of them may run at once, so no
// fixed number of thread instances covers every execution. A thread-modular proof does: an
// invariant over the shared state and one worker's state (x >= 0, x >= 1 once a worker has added
// its one), preserved by the steps of every other worker.
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
