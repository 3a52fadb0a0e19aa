//#Unknown unsupported: fork in a program without an entry procedure
//#Safe
// The remaining constructs: finite and builtin types, builtin constants and functions, const arrays,
// unique constants with an order, polymorphic procedures, triggers, `/`/`%`, `<==>`,
// `else if`, `if (*)`, free ensures, where clauses, join with assign, and `call forall` (in a procedure
// that `main` never calls).
type finite Color;
type {:builtin "RoundingMode"} RM;
const {:builtin "RNE"} rne: RM;
const unique red: Color;
const unique green: Color <: red;
function {:const_array} zeros(v: int) returns ([int]int);
function pick<t>(m: [int]t, i: int): t { m[i] }

procedure poly<t>(x: t) returns (y: t);
  free ensures y == x;

procedure lemma(n: int);
  ensures n * 0 == 0;

procedure unused()
{
  call forall lemma(*);
}

procedure child(a: int) returns (b: int)
{
  b := a + 1;
}

procedure main()
{
  var k: int where k >= 0;
  var inc: [int]int;
  var r: int;
  k := 7;
  call k := poly(k);
  assert k == 7;
  assume (forall i: int :: inc[i] == i + 1);
  assert pick(inc, 1) == 2 && zeros(5)[3] == 5;
  assert (forall i: int :: { inc[i] } inc[i] > i);
  assert k / 2 == 3 && k % 2 == 1;
  assert (k > 0 <==> 0 < k);
  if (k < 0) {
    assert false;
  } else if (k == 7) {
    k := 8;
  } else {
    assert false;
  }
  if (*) { k := k + 1; }
  assert k >= 8;
  assert red != green;
  fork 5 child(1);
  join 5 assign r;
}
