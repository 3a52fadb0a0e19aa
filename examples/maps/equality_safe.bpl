//#Safe
// Map equality is extensional: storing the value already there leaves the map equal.
procedure main() returns ()
{
  var a, b : [int]int;
  var i : int;
  b := a;
  a[i] := a[i];
  assert a == b;
  b[i] := b[i] + 1;
  assert a != b;
}
