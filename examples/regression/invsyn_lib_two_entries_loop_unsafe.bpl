//#Unsafe
// Both entries reach the same loop code via separate instances; from q, g starts arbitrary.
var g: int;
procedure loop() modifies g; { var i: int; i := 0; while (i < 3) { g := g + 2; i := i + 1; } assert g % 2 == 0; }
procedure main() modifies g; { g := 0; call loop(); }
