//#Safe
var m: [int]int;
procedure p(i: int) modifies m; ensures m == old(m); { var t: int; t := m[i]; m[i] := m[i+1]; m[i] := t; }
