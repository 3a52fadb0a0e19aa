//#Unsafe
// Uniqueness is per type and says nothing about a variable: k may equal x.
type T; type U; const unique a: T; const unique b: U; const unique k: int;
procedure main() { var x: int; assert k != x; }
