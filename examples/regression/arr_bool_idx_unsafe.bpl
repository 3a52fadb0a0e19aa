//#Unsafe
procedure main() { var g: [bool]int; var b: bool; g[true] := 1; g[false] := 2; g[b] := 3; assert g[true] == 1; }
