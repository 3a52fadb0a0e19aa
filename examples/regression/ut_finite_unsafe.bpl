//#Unsafe
// An uninterpreted type may have just one element... but unique a,b give 2; a third var may equal.
type T; const unique a, b: T;
procedure main() { var x: T; assert x != a && x != b; }
