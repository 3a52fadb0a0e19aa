//#Safe
// constant has the same value at every read, also across calls that havoc globals.
const k: int;
var g: int;
procedure P(); modifies g;
procedure ULTIMATE.start() modifies g; { var x: int; x := k; call P(); assert x == k; }
