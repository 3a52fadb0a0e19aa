//#Safe
// Nested map updates, records and field updates, type synonyms with parameters, polymorphic maps and
// functions, axioms, uninterpreted types and unique constants.
type Ref;
type Field a;
type Heap = <a>[Ref, Field a]a;
type Matrix t = [int][int]t;
type Point = { x: int, y: int };

const unique f: Field int;
const null: Ref;

function id<t>(v: t): t { v }
function {:inline} twice(n: int) returns (int) { n + n }
function sq(int): int;
axiom (forall n: int :: sq(n) >= 0);

procedure main()
{
  var h: Heap;
  var m: Matrix int;
  var p: Point;
  var r: Ref;
  h[r, f] := 3;
  assert h[r, f] == 3;
  m[1][2] := 5;
  assert m[1][2] == id(5);
  p!x := twice(2);
  p := { x: p!x, y: 7 };
  assert p!x == 4 && p!y == 7;
  assert sq(3) >= 0;
  assert r == null ==> h[null, f] == 3;
}
