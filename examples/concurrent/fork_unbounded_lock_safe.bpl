//#Safe
// Workers forked in a loop increment x under a lock taken by test-and-set. The assertion holds
// because the lock's holder is unique, which a view of one worker cannot know: the
// thread-modular proof keeps two workers in its view.
var x, m : int;

procedure ULTIMATE.start()
modifies x, m;
{
  x := 0;
  m := 0;
  while (*) {
    fork 0 worker();
  }
}

procedure worker()
modifies x, m;
{
  var t : int;
  atomic { assume m == 0; m := 1; }
  t := x;
  x := t + 1;
  assert x == t + 1;
  atomic { m := 0; }
}
