//#Unsafe
// old(m) is the value at procedure entry, not before the last update.
var m: [int]int;
procedure p(i: int) modifies m; { m[i] := 5; m[i] := m[i] + 1; assert old(m)[i] == 5; }
