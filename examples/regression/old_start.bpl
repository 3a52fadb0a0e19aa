//#Unsafe
// old(g) in the entry = initial g. g := g + 1; assert g == old(g) holds? no -> fails.
var g: int;
procedure ULTIMATE.start() modifies g; { g := g + 1; assert g == old(g); }
