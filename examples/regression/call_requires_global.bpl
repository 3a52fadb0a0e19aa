//#Unsafe
// requires on global: P requires g > 0; start sets g := 0 then calls.
var g: int;
procedure P() requires g > 0; { }
procedure ULTIMATE.start() modifies g; { g := 1; call P(); g := 0; call P(); }
