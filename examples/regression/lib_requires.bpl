//#Safe
// library mode: f requires x > 0, so its assert holds; main calls f(1) which satisfies requires.
procedure f(x: int) requires x > 0; { assert x > 0; }
procedure main() { call f(1); }
