//#Unsafe
var m: [int]int; var g: int;
procedure p() modifies m, g; { var v: int; v := m[g]; g := g + 1; m[g] := v + 5; assert old(m)[g] == v; }
