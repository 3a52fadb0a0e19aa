//#Unsafe
// A memory indexed by records (pointers as base and offset, as Ultimate's C translation writes
// them): the second write overwrites the first when both pointers are equal.
type Ptr = { base: int, offset: int };
var mem: [Ptr]int;

procedure main()
modifies mem;
{
  var p, q: Ptr;
  assume p!offset == 0 && q!offset == 0;
  mem[p] := 1;
  mem[q] := 2;
  assert mem[p] == 1;
}
