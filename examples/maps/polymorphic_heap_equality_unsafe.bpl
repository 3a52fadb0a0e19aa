//#Unsafe
// Two polymorphic maps that agree on every field of type `int` (the only instantiation the
// program reads) may still differ on fields of other types: their equality does not follow.
type Ref;
type Field a;
var H1, H2: <a>[Ref, Field a]a;
const unique val: Field int;

procedure main(r: Ref)
{
  assume (forall p: Ref, f: Field int :: H1[p, f] == H2[p, f]);
  assert H1 == H2;
}
