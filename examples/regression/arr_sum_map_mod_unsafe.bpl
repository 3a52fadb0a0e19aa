//#Unsafe
// Summary: ensures says nothing about m[k], modifies m havocs it.
var m: [int]int;
procedure q(i: int); modifies m; ensures m[i] == 1;
procedure ULTIMATE.start() modifies m; { m[5] := 0; call q(2); assert m[5] == 0; }
