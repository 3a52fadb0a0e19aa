//#Safe
type T; const unique a, b: T; const c: T;
procedure main() { assert a != b; assert c != a || c != b; }
