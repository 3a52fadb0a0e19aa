//#Safe
// bodiless P has parameter named g (shadowing global g); ensures h == g + 1 means h == param + 1.
var g, h: int;
procedure P(g: int); modifies h; ensures h == g + 1;
procedure ULTIMATE.start() modifies g, h; { g := 100; call P(1); assert h == 2; }
