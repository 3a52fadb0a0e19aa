//#Nonterminating
// Fresh cells: the loop reads buf[i] and buf[i + 1], writes at i and i - 1, and moves on. With buf
// zero everywhere each iteration reads only cells that no earlier iteration wrote, so the condition
// holds forever. No finite set of cells follows the run (i grows without bound): the geometric
// nontermination argument takes every read as the map's initial value and the indices, moving by 1,
// as ghost state variables; the writes stay behind the reads.
var buf: [int]int;

procedure main()
  modifies buf;
{
  var i: int;
  i := 0;
  while (buf[i] >= 0 && buf[i + 1] >= buf[i]) {
    buf[i] := buf[i] - 1;
    buf[i - 1] := 5;
    i := i + 1;
  }
}
