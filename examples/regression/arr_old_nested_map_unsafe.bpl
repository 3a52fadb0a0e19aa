//#Unsafe
var m: [int][int]int;
procedure q(i: int); modifies m; ensures m[i] == old(m)[i][0 := 1];
procedure ULTIMATE.start() modifies m; { var r: [int]int; r := m[3]; call q(2); assert m[3] == r; }
