//#Safe
// Workers forked in a loop rotate three distinct values under a lock; a reader checks, under the
// same lock, that two of them differ. Between the writes of a rotation two values are equal, so
// the fact the reader needs holds only while the lock is free (m == 0 ==> a != b), and only a
// view of two workers knows that the lock's holder is unique: a thread-modular proof with two
// workers in the view, whose invariant is a conjunction of the program's atoms (Houdini).
var a, b, c, t, m : int;

procedure ULTIMATE.start()
modifies a, b, c, t, m;
{
  a := 1; b := 2; c := 3; m := 0;
  fork 0 reader();
  while (*) {
    fork 1 worker();
  }
}

procedure reader()
modifies m;
{
  while (true) {
    atomic { assume m == 0; m := 1; }
    assert a != b && b != c;
    atomic { assume m == 1; m := 0; }
  }
}

procedure worker()
modifies a, b, c, t, m;
{
  atomic { assume m == 0; m := 1; }
  t := a;
  a := b;
  b := c;
  c := t;
  atomic { assume m == 1; m := 0; }
}
