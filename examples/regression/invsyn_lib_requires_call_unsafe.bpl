//#Unsafe
// The call violates p's requires after a loop of 6 iterations.
var g: int;
procedure main() modifies g; { var k: int; g := 0; k := 0; while (k < 6) { k := k + 1; g := g + 1; } call p(); }
procedure p() modifies g; requires g <= 5; { }
