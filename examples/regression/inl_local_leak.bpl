//#Unsafe
// Callee local t is uninitialised on every call (havocked); first call sets t := 5 but second call
// reads an arbitrary t. So r2 can be anything; assert r2 == 5 fails.
procedure f(first: bool) returns (r: int) { var t: int; if (first) { t := 5; } r := t; }
procedure ULTIMATE.start() { var r1, r2: int; call r1 := f(true); call r2 := f(false); assert r2 == 5; }
