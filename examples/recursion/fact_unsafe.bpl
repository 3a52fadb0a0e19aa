//#Unsafe
// Recursion as nested words: fact(3) returns 6, so the assertion r == 5 fails.
procedure fact(n: int) returns (r: int) { if (n <= 1) { r := 1; } else { call r := fact(n - 1); r := r * n; } }
procedure ULTIMATE.start() { var r: int; call r := fact(3); assert r == 5; }
