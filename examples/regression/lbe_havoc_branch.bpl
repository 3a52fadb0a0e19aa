//#Unsafe
// one branch havocs x, the other keeps it; x may change.
procedure ULTIMATE.start() { var x: int; x := 3; if (*) { havoc x; } else { } assert x == 3; }
