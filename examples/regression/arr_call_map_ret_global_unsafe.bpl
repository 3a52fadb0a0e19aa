//#Unsafe
// Result of a call assigned to a global map.
var m: [int]int;
procedure f() returns (r: [int]int) { r := m; r[0] := 1; }
procedure ULTIMATE.start() modifies m; { m[0] := 0; call m := f(); assert m[0] == 0; }
