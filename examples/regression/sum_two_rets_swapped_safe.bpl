//#Safe
procedure P() returns (a: int, b: int); ensures a == 1 && b == 2;
procedure ULTIMATE.start() { var x, y: int; call y, x := P(); assert x == 2 && y == 1; }
