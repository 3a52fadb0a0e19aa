//#Safe
type U; type T = U;
const unique a: T; const unique b: U;
procedure main() { assert a != b; }
