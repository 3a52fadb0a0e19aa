//#Safe
// A whole polymorphic map saved and compared: an update and its undo restore it.
type Ref;
type Field a;
var Heap: <a>[Ref, Field a]a;
const unique val: Field int;
const unique flag: Field bool;

procedure main(r: Ref)
modifies Heap;
{
  var saved: <a>[Ref, Field a]a;
  var x: int;
  saved := Heap;
  x := Heap[r, val];
  Heap[r, val] := x + 1;
  assert Heap != saved;
  Heap[r, val] := x;
  assert Heap == saved;
  havoc Heap;
  assume Heap[r, flag];
  assert Heap[r, flag];
}
