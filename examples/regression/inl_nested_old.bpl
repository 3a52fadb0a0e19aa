//#Safe
// old(g) in nested callees refers to the value at each callee's own entry.
// start: g := 1; call a(): a's old(g)=1; a sets g := 2; calls b: b's old(g)=2, b asserts old(g)==2, sets g := 3;
// back in a: assert old(g) == 1 && g == 3.
var g: int;
procedure b() modifies g; { assert old(g) == 2; g := 3; }
procedure a() modifies g; { g := 2; call b(); assert old(g) == 1 && g == 3; }
procedure ULTIMATE.start() modifies g; { g := 1; call a(); assert g == 3; }
