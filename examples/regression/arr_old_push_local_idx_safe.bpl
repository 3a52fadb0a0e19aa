//#Safe
// old(m[i]) with local i uses the current i.
var m: [int]int;
procedure p() modifies m; { var i, v: int; i := 3; v := m[3]; m[3] := 9; i := 4; v := m[4]; m[4] := 8; assert old(m[i]) == v; }
