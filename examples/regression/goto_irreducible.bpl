//#Unsafe
// irreducible control flow: two entries into a cycle A <-> B. x increments in both; reach x == 5 at B.
procedure ULTIMATE.start() { var x: int; x := 0; goto A, B;
  A: x := x + 1; if (x > 20) { goto End; } goto B;
  B: assert x != 5; x := x + 1; goto A;
  End: }
