//#Unsafe
procedure main() { var a: [int]int; var k: int; a[0] := 1; k := 4;
  while (k > 0) { k := k - 1; if (k == 0) { a[k] := 2; } }
  assert a[0] == 1; }
