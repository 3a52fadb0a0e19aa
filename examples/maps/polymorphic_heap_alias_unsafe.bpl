//#Unsafe
// Two references may alias: without `a != b`, writing `b`'s value may overwrite `a`'s.
type Ref;
type Field a;
var Heap: <a>[Ref, Field a]a;
const unique val: Field int;
const unique marked: Field bool;

procedure main(a: Ref, b: Ref)
modifies Heap;
{
  Heap[a, val] := 1;
  Heap[b, val] := 2;
  Heap[a, marked] := true;
  assert Heap[a, val] == 1;
}
