//#Unsafe
// library: a is safe, b has a failing ensures on one path only.
var g: int;
procedure a() modifies g; ensures g == 1; { g := 1; }
procedure b(x: int) returns (r: int) ensures r >= 0; { if (x > 100) { r := x - 200; return; } r := 0; }
