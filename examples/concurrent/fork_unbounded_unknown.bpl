//#Unknown unbounded threads: a fork needs more than 4 thread instances, and no thread-modular proof with up to 2 threads per unbounded fork was found
//#Safe
// Each forked worker adds one to x; the main thread counts its forks in n. x <= n holds, but
// the reason is a count of the workers that have not added yet: no invariant over a fixed
// number of workers states it, so neither a bounded number of thread instances nor a
// thread-modular proof decides it, and the answer is UNKNOWN.
var x, n : int;

procedure ULTIMATE.start()
modifies x, n;
{
  x := 0;
  n := 0;
  while (*) {
    fork 0 worker();
    n := n + 1;
  }
  assert x <= n;
}

procedure worker()
modifies x;
{
  atomic { x := x + 1; }
}
