//#Unsafe
procedure main() { var a: [int]int; var i: int; a[0] := 0; i := 0;
  while (i < 3) { havoc a; a[0] := i; i := i + 1; } assert a[0] == 0; }
