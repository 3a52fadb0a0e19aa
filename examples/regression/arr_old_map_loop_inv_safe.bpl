//#Safe
var m: [int]int;
procedure p(n: int) modifies m; { var i: int; i := 0;
  while (i < n) invariant i >= 0; invariant m[-1] == old(m)[-1]; { m[i] := 0; i := i + 1; }
  assert m[-1] == old(m[-1]); }
