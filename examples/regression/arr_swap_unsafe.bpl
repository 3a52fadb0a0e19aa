//#Unsafe
procedure main() { var a, b: [int]int; var i, j, t: int; b := a;
  t := a[i]; a[i] := a[j]; a[j] := t; assert a[i] == b[i]; }
