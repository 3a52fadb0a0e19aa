//#Unsafe
// Forks in a loop: with two instances of the worker running, x can reach 2.
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  while (*) {
    fork 0 worker();
  }
  assert x < 2;
}

procedure worker()
modifies x;
{
  atomic { x := x + 1; }
}
