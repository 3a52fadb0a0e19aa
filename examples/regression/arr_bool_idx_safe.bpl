//#Safe
// a [bool]int has only two entries.
procedure main() { var g: [bool]int; var b: bool; g[true] := 1; g[false] := 1; g[b] := 1; assert g[!b] == 1; }
