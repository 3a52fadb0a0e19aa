//#Safe
var g: int;
procedure main() modifies g; { g := 0; call p(); }
procedure p() modifies g; { var i, g0: int; i := 0; g0 := g;
  while (i < 5) { i := i + 1; g := g + 1; }
  assert g == g0 + i; }
