//#Safe
// Two threads increment a shared counter inside atomic blocks: no update is lost.
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  fork 1 inc();
  fork 2 inc();
  join 1;
  join 2;
  assert x == 2;
}

procedure inc()
modifies x;
{
  atomic { x := x + 1; }
}
