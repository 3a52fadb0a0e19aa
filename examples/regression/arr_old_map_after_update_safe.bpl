//#Safe
var m: [int]int;
procedure p(i: int) modifies m; { m[i] := 5; m[i+1] := 7; assert m[i] == 5; assert old(m)[i+2] == m[i+2]; assert old(m) == m[i := old(m)[i]][i+1 := old(m)[i+1]]; }
