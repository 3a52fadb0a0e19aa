//#Safe
var m: [int][int]int;
procedure q(i: int) modifies m; ensures m[i] == old(m)[i][0 := 1]; { m[i][0] := 1; }
procedure ULTIMATE.start() modifies m; { var r: [int]int; r := m[2]; call q(2); assert m[2][1] == r[1] && m[2][0] == 1; }
