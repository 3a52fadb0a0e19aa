//#Unsafe
// old(g) in the second call is g after the first call.
var g: int;
procedure p() modifies g; ensures g == old(g) + 2; { g := g + 2; }
procedure ULTIMATE.start() modifies g; { var s: int; s := g; call p(); call p(); assert g == s + 2; }
