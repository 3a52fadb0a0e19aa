//#Safe
// function body mentions a constant c with axiom c == 10.
const c: int;
axiom c == 10;
function addc(x: int): int { x + c }
procedure ULTIMATE.start() { assert addc(5) == 15; }
