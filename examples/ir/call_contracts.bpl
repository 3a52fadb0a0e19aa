//#Safe
// Requires/ensures at call sites, modifies, old, free contracts, where clauses.
var g: int;

procedure inc(x: int) returns (r: int);
  requires x >= 0;
  free requires g >= 0;
  modifies g;
  ensures r == x + 1;
  ensures g == old(g) + x;

implementation inc(y: int) returns (s: int)
{
  s := y + 1;
  g := g + y;
}

procedure main()
  modifies g;
{
  var a: int where a >= 0;
  g := 0;
  call a := inc(5);
  assert a == 6 && g == 5;
}
