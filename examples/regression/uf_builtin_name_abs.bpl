//#Unsafe
// A user `abs` is uninterpreted (z3 used to reject the declaration: UNKNOWN).
function abs(x: int): int;
procedure main() { assert abs(-1) == 1; }
