//#Unsafe
// havoc then assume x > 10 branch makes x == 0 false.
procedure ULTIMATE.start() { var x: int; if (*) { havoc x; assume x > 10; } else { x := 0; } assert x == 0; }
