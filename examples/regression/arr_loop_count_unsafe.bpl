//#Unsafe
procedure main() { var a: [int]int; var i, c: int; i := 0; c := 0;
  while (i < 3) { a[i] := a[i-1] + 1; if (a[i] > 100) { c := c + 1; } i := i + 1; }
  assert c == 0; }
