//#Unsafe
// x starts at -10, adds 3 until > 0: -10,-7,-4,-1,2. x mod 3 == 2 (Euclidean: -10 mod 3 = 2). assert x mod 3 == 1 fails.
procedure ULTIMATE.start() { var x: int; x := -10; while (x <= 0) { x := x + 3; } assert x % 3 == 1; }
