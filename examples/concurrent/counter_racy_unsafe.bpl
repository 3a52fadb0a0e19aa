//#Unsafe
// The same counter without atomic blocks: both threads may read 0, and one update is lost.
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
  var t : int;
  t := x;
  x := t + 1;
}
