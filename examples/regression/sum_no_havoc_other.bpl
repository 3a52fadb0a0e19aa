//#Safe
// bodiless P modifies g only; h is unchanged; locals unchanged.
var g, h: int;
procedure P() returns (r: int); modifies g;
procedure ULTIMATE.start() modifies g, h; { var x: int; h := 4; x := 9; call x := P(); assert h == 4; }
