//#Unsafe
const unique k1: int; const unique k2: int;
procedure main() { assert k1 < k2 || k1 > k2 + 1; }
