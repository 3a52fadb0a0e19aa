//#Safe
// `clamp` maps every cell of A to its non-negative part while `count` counts the positive cells.
// Whatever the interleaving, a cell that is positive at the end was positive when `count` passed it
// (clamping keeps a cell's sign), so it was counted: the proof is the witness
// `m < j && A[m] >= 1 ==> cnt >= 1` of `count`'s loop (with `cnt >= 0`), which `clamp`'s steps
// preserve (Houdini over the configurations).
var A : [int]int;
var n : int;

function clampNeg(x : int) returns (int) { if x < 0 then 0 else x }

procedure ULTIMATE.start()
modifies A;
{
  var m, seen : int;
  assume 0 <= m && m < n;
  fork 1 clamp();
  fork 2 count();
  join 1;
  join 2 assign seen;
  assert A[m] > 0 ==> seen >= 1;
}

procedure clamp()
modifies A;
{
  var i : int;
  i := 0;
  while (i < n) {
    A[i] := clampNeg(A[i]);
    i := i + 1;
  }
}

procedure count() returns (cnt : int)
{
  var j : int;
  cnt := 0;
  j := 0;
  while (j < n) {
    if (A[j] > 0) {
      cnt := cnt + 1;
    }
    j := j + 1;
  }
}
