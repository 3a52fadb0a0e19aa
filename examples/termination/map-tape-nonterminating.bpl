//#Nonterminating
// A tape in a map: the head moves back and forth over two cells that never change, so the state
// (including the map contents) repeats. The unwritten cells stay unconstrained but are never read.
procedure main()
{
    var head: int;
    var mem: [int]int;
    head := 0;
    mem[0] := 1;
    mem[1] := 1;
    while (mem[head] != 0) {
        head := 1 - head;
    }
}
