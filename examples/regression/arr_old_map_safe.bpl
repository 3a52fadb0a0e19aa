//#Safe
var m: [int]int;
procedure p(i: int) modifies m; ensures old(m)[i] + 1 == m[i]; { m[i] := m[i] + 1; }
procedure main() modifies m; { var v: int; v := m[3]; call p(3); assert m[3] == v + 1; }
