//#Unsafe
// free requires is assumed at p's entry but not at q's entry.
var m: [int]int;
procedure p(i: int) free requires m[i] > 0; { assert m[i] > 0; }
procedure q(i: int) { assert m[i] > 0; }
