//#Safe
procedure main() { var x: real; x := 0.1 + 0.2; assert x == 0.3; assert 1.5 / 0.5 == 3.0; }
