//#Safe
type Ref;
const unique r1, r2: Ref;
procedure main() { var h: [Ref]int; h[r1] := 1; h[r2] := 2; assert h[r1] == 1; }
