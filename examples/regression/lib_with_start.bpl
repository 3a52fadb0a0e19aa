//#Safe
// ULTIMATE.start exists: only it is the entry; f's assert is only reached via start with x = 1.
procedure f(x: int) { assert x > 0; }
procedure ULTIMATE.start() { call f(1); }
