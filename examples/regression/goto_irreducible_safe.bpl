//#Safe
// irreducible: x stays even at B... A adds 1, B adds 1; entering B directly with x = 0 (even); from A to B with x odd?
// A: x := x + 2; B: assert x mod 2 == 0; x := x + 2. All values even.
procedure ULTIMATE.start() { var x: int; x := 0; goto A, B;
  A: x := x + 2; if (x > 20) { goto End; } goto B;
  B: assert x % 2 == 0; x := x + 2; goto A;
  End: }
