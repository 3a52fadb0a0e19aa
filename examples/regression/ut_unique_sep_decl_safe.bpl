//#Safe
// unique constants declared in separate declarations are still pairwise distinct
type T; const unique a: T; const unique b: T;
procedure main() { assert a != b; }
