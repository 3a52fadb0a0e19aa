//#Terminating
// A counter in a cell of a two-dimensional map and a step read through an uninterpreted function:
// the ranking function is the cell m[0, 0] itself, with the supporting invariant step(0)[0] >= 1.
function step(int) returns ([int]int);
var m: [int, int]int;
procedure main()
modifies m;
{
  assume step(0)[0] >= 1;
  while (m[0, 0] >= 0) {
    m[0, 0] := m[0, 0] - step(0)[0];
  }
}
