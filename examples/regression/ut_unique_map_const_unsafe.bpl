//#Unsafe
// Two unique maps differ somewhere, not necessarily at 0.
const unique m1: [int]int; const unique m2: [int]int;
procedure main() { assert m1[0] != m2[0]; }
