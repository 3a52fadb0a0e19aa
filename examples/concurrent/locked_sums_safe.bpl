//#Safe
// Two threads sum the same array, each step under a lock; after both are joined the sums agree.
// The proof pairs the i-th step of one thread with the i-th step of the other (x == y when
// i == j), which needs the reduction to run the loops in lockstep; the lock's steps do not
// commute, so with the lock the reduction cannot reorder them. The assertion does not need the
// lock, so the program is proved with the synchronisation abstracted away (an over-approximation:
// its proof is a proof of the program).
var m : bool;
var A : [int]int;
var x, y, n : int;

procedure ULTIMATE.start()
modifies m, x, y;
{
  x := 0;
  y := 0;
  fork 1 summer1();
  fork 2 summer2();
  join 1;
  join 2;
  assert x == y;
}

procedure summer1()
modifies m, x;
{
  var i : int;
  i := 0;
  while (i < n) {
    atomic { assume !m; m := true; }
    x := x + A[i];
    m := false;
    i := i + 1;
  }
}

procedure summer2()
modifies m, y;
{
  var j : int;
  j := 0;
  while (j < n) {
    atomic { assume !m; m := true; }
    y := y + A[j];
    m := false;
    j := j + 1;
  }
}
