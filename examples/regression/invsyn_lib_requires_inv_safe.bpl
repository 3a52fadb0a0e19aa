//#Safe
// The requires holds for every entry (assumed) and at the call (checked).
var g: int;
procedure main() modifies g; { g := 0; call p(); }
procedure p() modifies g; requires g == 0; { var i: int; i := 0;
  while (i < 5) { i := i + 1; g := g + 1; }
  assert g == i; }
