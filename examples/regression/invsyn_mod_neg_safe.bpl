//#Safe
// x decreases below zero; mod is Euclidean (non-negative remainder) in Boogie/SMT.
procedure main() { var x: int; x := 1;
  while (*) { x := x - 3; }
  assert x % 3 == 1; }
