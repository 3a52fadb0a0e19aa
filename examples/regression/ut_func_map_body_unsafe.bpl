//#Unsafe
function upd(m: [int]int, i: int): [int]int { m[i := m[i] + 1] }
procedure main() { var m: [int]int; var i, j: int; m[i] := 0; m := upd(m, j); assert m[i] == 0; }
