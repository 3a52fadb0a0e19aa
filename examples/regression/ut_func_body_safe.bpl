//#Safe
function sq(x: int): int { x * x }
procedure main() { var x: int; assert sq(x) >= 0; }
