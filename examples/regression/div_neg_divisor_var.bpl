//#Safe
// div/mod identity a == b * (a div b) + a mod b for b != 0, and 0 <= a mod b < |b|.
procedure ULTIMATE.start() { var a, b: int; havoc a; havoc b; assume b == -3; assert a == b * (a / b) + a % b && 0 <= a % b && a % b < 3; }
