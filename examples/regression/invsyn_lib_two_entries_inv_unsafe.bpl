//#Unsafe
// Library mode: p is an entry with arbitrary g; from main g == 0 at the loop, from p not.
var g: int;
procedure main() modifies g; { g := 0; call p(); }
procedure p() modifies g; { var i: int; i := 0;
  while (i < 5) { i := i + 1; g := g + 1; }
  assert g == i; }
