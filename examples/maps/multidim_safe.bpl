//#Safe
// Two-argument and nested maps: updates at one index leave the others unchanged.
var g : [int,int]int;

procedure main() returns ()
modifies g;
{
  var h : [int][int]bool;
  var i, j : int;
  assume i != j;
  g[i, j] := 1;
  g[j, i] := 2;
  h[i][j] := true;
  h[i][i] := false;
  assert g[i, j] == 1 && g[j, i] == 2;
  assert h[i][j] && !h[i][i];
}
