//#Unsafe
// As map_halves_safe.bpl, but `up` runs while `i <= n`, one cell into `down`'s half: the cell n is
// incremented and decremented, so for k == n the assertion `A[k] == x - 1` fails.
var A : [int]int;
var n : int;

procedure ULTIMATE.start()
modifies A;
{
  var k, x : int;
  assume 0 <= k && k < 2 * n;
  x := A[k];
  fork 1 up();
  fork 2 down();
  join 1;
  join 2;
  assert k < n ==> A[k] == x + 1;
  assert k >= n ==> A[k] == x - 1;
}

procedure up()
modifies A;
{
  var i : int;
  i := 0;
  while (i <= n) {
    A[i] := A[i] + 1;
    i := i + 1;
  }
}

procedure down()
modifies A;
{
  var j : int;
  j := 2 * n - 1;
  while (j >= n) {
    A[j] := A[j] - 1;
    j := j - 1;
  }
}
