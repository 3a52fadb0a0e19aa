//#Unsafe
var m: [int]int;
procedure p(n: int) modifies m; { var i: int; i := -2;
  while (i < n) invariant m[-1] == old(m)[-1]; { m[i] := 0; i := i + 1; } }
