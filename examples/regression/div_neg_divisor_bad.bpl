//#Unsafe
// with b == -3, a == 7: 7 div -3 == -2 (Euclidean: 7 = -3 * -2 + 1). Truncation would also give -2; try a == -7: -7 div -3 == 3 (since -7 = -3*3 + 2), truncation gives 2.
procedure ULTIMATE.start() { var a, b, q: int; a := -7; b := -3; q := a / b; assert q == 2; }
