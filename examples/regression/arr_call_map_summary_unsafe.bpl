//#Unsafe
// Bodyless callee: havocs m, ensures only about m[x].
var m: [int]int;
procedure set(x: int); modifies m; ensures m[x] == 0;
procedure main() modifies m; { var k, y: int; m[k] := 1; assume y != k; call set(y); assert m[k] == 1; }
