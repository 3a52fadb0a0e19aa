//#Unsafe
type T; const a, b: T;
procedure main() { assert a != b; }
