//#Unknown unsupported: recursion
//#Unsafe
// recursion: fact(3) returns... body returns n when n<=1 else n * rec; assert r == 5 fails.
procedure fact(n: int) returns (r: int) { if (n <= 1) { r := 1; } else { call r := fact(n - 1); r := r * n; } }
procedure ULTIMATE.start() { var r: int; call r := fact(3); assert r == 5; }
