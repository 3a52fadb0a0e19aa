//#Safe
// free ensures of a bodiless procedure are assumed after the call.
procedure P() returns (r: int); free ensures r > 0;
procedure ULTIMATE.start() { var x: int; call x := P(); assert x > 0; }
