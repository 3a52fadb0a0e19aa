//#Safe
// Two threads update the two halves of one map: `up` adds 1 to the cells 0 .. n-1 going up, `down`
// subtracts 1 from the cells n .. 2n-1 going down. Each thread's proof is a ranged index split —
// `0 <= k && k < i ==> A[k] == x + 1` and `i <= k && k < n ==> A[k] == x` for `up`, the mirror
// images for `down` — which the other thread's writes preserve because they stay in the other half
// (Houdini over the configurations).
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
  while (i < n) {
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
