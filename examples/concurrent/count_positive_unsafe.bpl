//#Unsafe
// As count_positive_safe.bpl, but `bump` adds one to every cell: a cell `count` passed at 0 ends
// positive, uncounted. The witness `m < j && A[m] >= 1 ==> cnt >= 1` is not preserved by `bump`'s
// steps, and the interleaving that counts before bumping violates the assertion.
var A : [int]int;
var n : int;

procedure ULTIMATE.start()
modifies A;
{
  var m, seen : int;
  assume 0 <= m && m < n;
  fork 1 bump();
  fork 2 count();
  join 1;
  join 2 assign seen;
  assert A[m] > 0 ==> seen >= 1;
}

procedure bump()
modifies A;
{
  var i : int;
  i := 0;
  while (i < n) {
    A[i] := A[i] + 1;
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
