//#Unsafe
// bodiless P modifies global g, ensures g == 7; caller Q's local g is untouched (stays 5). assert local g == 7 fails.
var g: int;
procedure P(); modifies g; ensures g == 7;
procedure Q() modifies g; { var g: int; g := 5; call P(); assert g == 7; }
procedure ULTIMATE.start() modifies g; { call Q(); }
