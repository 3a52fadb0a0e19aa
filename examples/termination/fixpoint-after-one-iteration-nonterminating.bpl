//#Nonterminating
// Each iteration havocs the map and keeps only maps where mem[p] is odd (2 * v + 7 for some v).
// The state on entry (mem[p] = 2) is not mapped to itself, but every state after one iteration is:
// repeating the same choice (the same map, the same v) runs forever.
var mem: [int]int;
procedure main()
modifies mem;
{
  var p, v: int;
  mem[p] := 2;
  while (true) {
    havoc mem;
    assume mem[p] == v + v + 7;
  }
}
