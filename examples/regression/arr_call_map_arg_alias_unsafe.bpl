//#Unsafe
var m: [int]int;
procedure f(a: [int]int) modifies m; { m[0] := 5; assert a[0] == 5; }
procedure ULTIMATE.start() modifies m; { m[0] := 1; call f(m); }
