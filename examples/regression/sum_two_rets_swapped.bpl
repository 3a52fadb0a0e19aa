//#Unsafe
// bodiless P returns (a, b) with a == 1 && b == 2; call y, x := P() -> y == 1, x == 2. assert x == 1 fails.
procedure P() returns (a: int, b: int); ensures a == 1 && b == 2;
procedure ULTIMATE.start() { var x, y: int; call y, x := P(); assert x == 1; }
