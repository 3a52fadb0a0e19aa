//#Safe
procedure main() { var x: int; assume x > 0; assert x >= 1; }
