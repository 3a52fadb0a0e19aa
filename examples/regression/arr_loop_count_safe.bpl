//#Safe
// Karr over ints with map accesses ignored: c == i holds regardless of the map.
procedure main() { var a: [int]int; var i, c: int; i := 0; c := 0;
  while (i < 10) { a[i] := a[i-1] + 1; i := i + 1; c := c + 1; }
  assert c == 10; }
