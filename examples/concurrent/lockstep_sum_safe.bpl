//#Safe
// Two threads sum the same array into their own variables. With the lockstep preference order the
// representative interleavings run the loops side by side, so the proof needs only
// `i == j && x == y` (Karr's equalities over the configurations, or an interpolant), not the sums.
var A : [int]int;
var x, y, n : int;

procedure ULTIMATE.start()
modifies x, y;
{
  x := 0;
  y := 0;
  fork 1 left();
  fork 2 right();
  join 1;
  join 2;
  assert x == y;
}

procedure left()
modifies x;
{
  var i : int;
  i := 0;
  while (i < n) {
    x := x + A[i];
    i := i + 1;
  }
}

procedure right()
modifies y;
{
  var j : int;
  j := 0;
  while (j < n) {
    y := y + A[j];
    j := j + 1;
  }
}
