//#Safe
var m: [int]int;
procedure p(i: int) modifies m; { assert old(m) == m; m[i] := 1; assert old(m)[i+1] == m[i+1]; }
