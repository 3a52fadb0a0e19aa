//#Safe
// call x := P() with x a local; P ensures r == g (g unmodified). x == g afterwards.
var g: int;
procedure P() returns (r: int); ensures r == g;
procedure ULTIMATE.start() { var x: int; call x := P(); assert x == g; }
