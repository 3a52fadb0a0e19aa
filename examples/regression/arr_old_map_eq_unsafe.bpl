//#Unsafe
var m: [int]int;
procedure p(i: int) modifies m; ensures m == old(m); { m[i] := m[i+1]; }
