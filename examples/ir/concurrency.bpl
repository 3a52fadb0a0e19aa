//#Safe
// fork, join and atomic blocks.
var c: int;

procedure worker(k: int)
  modifies c;
{
  atomic {
    c := c + k;
  }
}

procedure ULTIMATE.start()
  modifies c;
{
  c := 0;
  fork 1 worker(2);
  join 1;
  assert c == 2;
}
