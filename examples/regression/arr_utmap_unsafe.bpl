//#Unsafe
// Non-unique constants may be equal.
type Ref;
const r1, r2: Ref;
procedure main() { var h: [Ref]int; h[r1] := 1; h[r2] := 2; assert h[r1] == 1; }
