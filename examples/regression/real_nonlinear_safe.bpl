//#Safe
procedure main() { var x: real; assert x * x >= 0.0; }
