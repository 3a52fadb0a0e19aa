//#Unsafe
procedure main() { var a: [real]int; var x, y: real; assume y > x; a[x] := 1; a[y / 2.0] := 2; assert a[x] == 1; }
