//#Safe
var g: int;
procedure p() modifies g; { var i: int; i := 0;
  while (i < 4) { g := g + 1; i := i + 1; }
  assert g == old(g) + 4; }
