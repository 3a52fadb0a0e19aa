//#Safe
// bodiless P has a return named g (shadowing global g). ensures g == 3 is about the return.
var g: int;
procedure P() returns (g: int); ensures g == 3;
procedure ULTIMATE.start() modifies g; { var x: int; g := 10; call x := P(); assert x == 3 && g == 10; }
