//#Safe
procedure main() { var x: real; x := -7.0 / 2.0; assert x == -3.5; }
