//#Safe
// three-way rotation through temporaries; tests aux elimination.
procedure ULTIMATE.start() { var a, b, c, t: int; a := 1; b := 2; c := 3; t := a; a := b; b := c; c := t; t := a; a := b; b := c; c := t; assert a == 3 && b == 1 && c == 2; }
