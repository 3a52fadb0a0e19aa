//#Safe
// Boogie's heap: a polymorphic map from references and typed fields to values of the field's type.
// Writing one field of one object leaves the other fields and objects unchanged.
type Ref;
type Field a;
var Heap: <a>[Ref, Field a]a;
const unique next: Field Ref;
const unique val: Field int;
const unique marked: Field bool;

procedure SetVal(o: Ref, v: int)
modifies Heap;
ensures Heap[o, val] == v;
ensures (forall p: Ref :: p != o ==> Heap[p, val] == old(Heap)[p, val]);
ensures (forall p: Ref :: Heap[p, next] == old(Heap)[p, next] && Heap[p, marked] == old(Heap)[p, marked]);
{
  Heap[o, val] := v;
}

procedure main(a: Ref, b: Ref)
modifies Heap;
requires a != b;
{
  Heap[a, next] := b;
  Heap[b, marked] := true;
  call SetVal(a, 1);
  call SetVal(b, 2);
  assert Heap[a, val] == 1 && Heap[b, val] == 2;
  assert Heap[a, next] == b && Heap[b, marked];
  assert Heap[Heap[a, next], val] == 2;
}
