//#Terminating
// A countdown by a step stored in a map: the ranking function is x, with the supporting invariant
// a[k] >= 1 on the map cell a[k]; the write to a[k + 1] in the loop does not touch that cell.
var a: [int]int;
procedure main(k: int)
modifies a;
{
  var x: int;
  assume a[k] >= 1;
  while (x >= 0) {
    x := x - a[k];
    a[k + 1] := x;
  }
}
