//#Unsafe
// call g := P(g): P modifies g (ensures g == 100), returns r == x + 1. After call g = old g + 1 = 4. assert g == 100 fails.
var g: int;
procedure P(x: int) returns (r: int); modifies g; ensures g == 100; ensures r == x + 1;
procedure ULTIMATE.start() modifies g; { g := 3; call g := P(g); assert g == 100; }
