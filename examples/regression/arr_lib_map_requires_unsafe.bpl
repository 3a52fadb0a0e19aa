//#Unsafe
// q calls p with m[4] arbitrary.
var m: [int]int;
procedure p(i: int) requires m[i] > 0; modifies m; { }
procedure q() modifies m; { m[3] := 1; call p(4); }
