//#Safe
procedure main() { var a, b: [int]int; var i: int;
  b := a; a[i] := 1; a[i] := b[i]; assert a == b; }
