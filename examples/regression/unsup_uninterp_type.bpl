//#Unsafe
// uninterpreted type: two values of type T could be equal.
type T;
procedure ULTIMATE.start() { var a, b: T; assert a != b; }
