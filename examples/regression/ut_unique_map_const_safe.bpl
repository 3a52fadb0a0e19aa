//#Safe
const unique m1: [int]int; const unique m2: [int]int;
procedure main() { var i: int; assume (m1[i := 0])[i+1 := 0] == m1; assert m2 != m1; }
