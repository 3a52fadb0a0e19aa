//#Safe
// Maps as parameters, return values and modified globals, with old(m) in an ensures clause.
var m : [int]int;

procedure set(x : int, v : int)
modifies m;
ensures m == old(m)[x := v];
{
  m[x] := v;
}

procedure bump(a : [int]int, x : int) returns (b : [int]int)
ensures b[x] == a[x] + 1;
{
  b := a;
  b[x] := b[x] + 1;
}

procedure main() returns ()
modifies m;
{
  var c : [int]int;
  var k : int;
  m[k] := 3;
  call set(k + 1, 4);
  assert m[k] == 3 && m[k + 1] == 4;
  call c := bump(m, k);
  assert c[k] == 4;
}
