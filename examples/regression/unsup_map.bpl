//#Unsafe
// map used: must not be SAFE.
var m: [int]int;
procedure ULTIMATE.start() modifies m; { m[0] := 1; assert m[0] == 2; }
