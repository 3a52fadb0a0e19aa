//#Safe
var m: [int]int;
procedure set(x: int); modifies m; ensures m == old(m)[x := 0];
procedure main() modifies m; { var k, y: int; m[k] := 1; assume y != k; call set(y); assert m[k] == 1 && m[y] == 0; }
