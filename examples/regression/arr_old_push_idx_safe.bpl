//#Safe
// old(m[g]) is old(m)[old(g)].
var m: [int]int; var g: int;
procedure p() modifies m, g; { var v: int; v := m[g]; g := g + 1; m[g] := v + 5; assert old(m[g]) == v; }
