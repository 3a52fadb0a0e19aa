//#Unsafe
// h(1,5) = g(5,1) = 4; assert == -4 fails (would hold if args were not swapped / capture bug).
function g(a: int, b: int): int { a - b }
function h(a: int, b: int): int { g(b, a) }
procedure ULTIMATE.start() { var r: int; r := h(1, 5); assert r == -4; }
