//#Safe
var m: [int]int; var n: [int]int;
procedure q(i: int); modifies m; ensures m[i] == 1;
procedure ULTIMATE.start() modifies m, n; { n[5] := 0; call q(2); assert n[5] == 0 && m[2] == 1; }
