//#Unsafe
procedure main() { var a: [int]int; var i, n: int; i := 0;
  while (i < n) { a[i] := 0; i := i + 1; }
  assume n > 0; assert a[n] == 0; }
