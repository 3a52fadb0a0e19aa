//#Unsafe
const m: [int]int; axiom m[0] == 1;
procedure main() { assert m[1] == 1; }
