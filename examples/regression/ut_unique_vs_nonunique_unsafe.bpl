//#Unsafe
// c is not unique, so it may equal a.
type T; const unique a, b: T; const c: T;
procedure main() { assert c != a; }
