//#Safe
// parameter named like the global g: inside f, g means the parameter. f(3) returns 3+1 and leaves the global unchanged.
var g: int;
procedure f(g: int) returns (r: int) { r := g + 1; }
procedure ULTIMATE.start() modifies g; { var x: int; g := 10; call x := f(3); assert x == 4 && g == 10; }
