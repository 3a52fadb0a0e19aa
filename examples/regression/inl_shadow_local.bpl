//#Unsafe
// local named g in callee shadows global; callee writes local g := 7 only; global stays 10. assert g == 7 fails.
var g: int;
procedure f() { var g: int; g := 7; }
procedure ULTIMATE.start() modifies g; { g := 10; call f(); assert g == 7; }
