//#Unsafe
// bodiless P modifies g with no ensures: g is havocked; assert g == 0 fails.
var g: int;
procedure P(); modifies g;
procedure ULTIMATE.start() modifies g; { g := 0; call P(); assert g == 0; }
