//#Unsafe
var m: [int]int; var g: int;
procedure p() modifies m, g; { g := 7; m := old(m[g := 1]); assert m[7] == 1; }
