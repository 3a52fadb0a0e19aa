//#Unsafe
// The type may have a single element, so two variables may be equal.
type T;
procedure main() { var x, y: T; assert x != y; }
