//#Unsafe
// ensures claims g == old(g) + n + 1, off by one.
var g: int;
procedure f(n: int) modifies g; requires n >= 0; ensures g == old(g) + n + 1;
{ var i: int; i := 0; while (i < n) invariant g == old(g) + i && i <= n; { g := g + 1; i := i + 1; } }
