//#Safe
// `move` shifts one unit from B[i] to A[i], cell by cell, atomically; `total` records the sums
// C[j] := A[j] + B[j] meanwhile. Whatever the interleaving, a recorded sum stays right: the proof is
// the index split `m < j ==> C[m] == A[m] + B[m]` of `total`'s loop, which `move`'s steps preserve
// (Houdini over the configurations), with `j == n` when `total` ends.
var A, B, C : [int]int;
var n : int;

procedure ULTIMATE.start()
modifies A, B, C;
{
  var m : int;
  assume 0 <= m && m < n;
  fork 1 move();
  fork 2 total();
  join 1;
  join 2;
  assert C[m] == A[m] + B[m];
}

procedure move()
modifies A, B;
{
  var i : int;
  i := 0;
  while (i < n) {
    atomic {
      A[i] := A[i] + 1;
      B[i] := B[i] - 1;
    }
    i := i + 1;
  }
}

procedure total()
modifies C;
{
  var j : int;
  j := 0;
  while (j < n) {
    C[j] := A[j] + B[j];
    j := j + 1;
  }
}
