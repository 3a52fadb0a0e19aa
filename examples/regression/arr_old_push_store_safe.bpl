//#Safe
var m: [int]int; var g: int;
procedure p() modifies m, g; { var k: int; k := old(g); g := 7; m := old(m[g := 1]); assert m[k] == 1; }
