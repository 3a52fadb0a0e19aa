//#Unsafe
// as inl_nested_old but a asserts old(g) == 2 (it is 1).
var g: int;
procedure b() modifies g; { assert old(g) == 2; g := 3; }
procedure a() modifies g; { g := 2; call b(); assert old(g) == 2; }
procedure ULTIMATE.start() modifies g; { g := 1; call a(); }
