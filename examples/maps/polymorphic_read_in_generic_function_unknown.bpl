//#Unknown unsupported: polymorphic maps
//#Safe
// A polymorphic map read inside a polymorphic function (at its type parameter) is not rewritten.
type Ref;
type Field a;
var Heap: <a>[Ref, Field a]a;
function {:inline} read<a>(h: <b>[Ref, Field b]b, r: Ref, f: Field a) returns (a) { h[r, f] }
const unique f: Field int;
procedure main(r: Ref)
modifies Heap;
{
  Heap[r, f] := 3;
  assert read(Heap, r, f) == 3;
}
