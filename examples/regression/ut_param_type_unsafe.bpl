//#Unsafe
// Box int and Box bool are different types: uniqueness does not relate a with c; c and d non-unique.
type Box a;
const unique a: Box int; const unique b: Box int; const c, d: Box bool;
procedure main() { assert c != d; }
