//#Safe
// both procedures have a local x; callee's x is distinct from caller's x.
procedure f() returns (r: int) { var x: int; x := 100; r := x; }
procedure ULTIMATE.start() { var x, y: int; x := 1; call y := f(); assert x == 1 && y == 100; }
