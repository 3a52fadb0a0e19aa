//#Safe
// function with body: sq(x) = x*x; sq(3) == 9.
function sq(x: int): int { x * x }
procedure ULTIMATE.start() { assert sq(3) == 9 && sq(-2) == 4; }
