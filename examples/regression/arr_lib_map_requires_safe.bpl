//#Safe
var m: [int]int;
procedure p(i: int) requires m[i] > 0; modifies m; { m[i+1] := m[i]; assert m[i+1] > 0 && m[i] > 0; }
procedure q() modifies m; { m[3] := 1; call p(3); }
