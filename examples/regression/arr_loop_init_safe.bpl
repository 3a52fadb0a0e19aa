//#Safe
procedure main() { var a: [int]int; var i, n: int; i := 0; a[5] := 7;
  while (i < n) { if (i != 5) { a[i] := 0; } i := i + 1; }
  assert a[5] == 7; }
