//#Unsafe
// Mixed: integer counter, real accumulator; after 4 iterations s == 1.0.
procedure main() { var s: real; var i: int; s := 0.0; i := 0; while (i < 4) { s := s + 0.25; i := i + 1; } assert s < 1.0; }
