//#Safe
// unused variable of type real; program otherwise safe. SAFE or UNKNOWN acceptable.
var r: real;
procedure ULTIMATE.start() { var x: int; x := 1; assert x == 1; }
