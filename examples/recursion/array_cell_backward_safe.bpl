//#Safe
// A recursive procedure makes the whole program a nested-word automaton, interpolated by the
// recursive loop. The assertion depends on an array cell a store wrote before a loop: the forward
// interpolants project the array away (an existential over its old value), the weakest
// precondition keeps `a[y % 4]`, so the recursive loop tries backward sequences too.
var a: [int]int;
var g: int;

procedure rec(n: int) returns (r: int)
  modifies g;
{
  if (n <= 0) { r := g; } else { g := (g + n) % 5; call r := rec(n - 1); r := (r + n) % 7; }
}

procedure main()
  modifies a, g;
{
  var x, y, w: int;
  y := 0;
  w := 0;
  a[0] := 0;
  a[1] := 0;
  a[2] := 2;
  a[3] := 4;
  g := 3;
  while (w < 0) {
    call w := rec(a[y % 4] % 4);
  }
  x := (a[y % 4] % 4) % 25;
  w := x % 33;
  assert 2 * w + x <= 0;
}
