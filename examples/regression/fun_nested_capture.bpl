//#Safe
// nested function application with same parameter names: g(a, b) = a - b; h(a, b) = g(b, a).  h(1,5) = g(5,1) = 4.
function g(a: int, b: int): int { a - b }
function h(a: int, b: int): int { g(b, a) }
procedure ULTIMATE.start() { assert h(1, 5) == 4; }
