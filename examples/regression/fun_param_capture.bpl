//#Safe
// function parameter named x while caller has local x: f(x) = x + 1 with arg y + x... f(x + 1) where local x=1 -> 3.
function f(x: int): int { x + 1 }
procedure ULTIMATE.start() { var x: int; x := 1; assert f(x + 1) == 3; }
