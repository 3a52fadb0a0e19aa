//#Safe
// Passing the global m as argument: the parameter is a snapshot, not an alias.
var m: [int]int;
procedure f(a: [int]int) modifies m; { m[0] := 5; assert a[0] == 1; }
procedure ULTIMATE.start() modifies m; { m[0] := 1; call f(m); }
