//#Safe
function {:inline} upd(m: [int]int, i: int): [int]int { m[i := m[i] + 1] }
procedure main() { var m: [int]int; var i: int; m[i] := 0; m := upd(upd(m, i), i); assert m[i] == 2; }
