//#Safe
// Threads are forked in a loop, but the loop runs twice: the fork is on a cycle, yet two
// instances of the worker cover every execution (a trace to a third fork is infeasible), so the
// bounded search with two instances answers, before a thread-modular proof is tried.
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  var i : int;
  x := 0;
  i := 0;
  while (i < 2) {
    fork i worker();
    i := i + 1;
  }
  assert x >= 0;
}

procedure worker()
modifies x;
{
  atomic { x := x + 1; }
}
