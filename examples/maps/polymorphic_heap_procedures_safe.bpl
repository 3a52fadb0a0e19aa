//#Safe
// A polymorphic heap behind a type synonym, passed to and returned from a procedure, constrained by
// a function in a `where` clause.
type Ref;
type Field a;
type HeapType = <a>[Ref, Field a]a;
function IsGood(h: HeapType) returns (bool);
var Heap: HeapType where IsGood(Heap);
const unique count: Field int;
const unique link: Field Ref;

procedure Increment(h: HeapType, r: Ref) returns (h2: HeapType)
ensures h2 == h[r, count := h[r, count] + 1];
{
  h2 := h[r, count := h[r, count] + 1];
}

procedure main(r: Ref)
modifies Heap;
{
  var before: int;
  var l: Ref;
  before := Heap[r, count];
  l := Heap[r, link];
  call Heap := Increment(Heap, r);
  assert Heap[r, count] == before + 1;
  assert Heap[r, link] == l;
  assert IsGood(Heap);
}
