//#Unsafe
// after two rotations (1,2,3)->(2,3,1)->(3,1,2); assert a == 2 fails.
procedure ULTIMATE.start() { var a, b, c, t: int; a := 1; b := 2; c := 3; t := a; a := b; b := c; c := t; t := a; a := b; b := c; c := t; assert a == 2; }
