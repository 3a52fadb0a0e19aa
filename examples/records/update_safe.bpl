//#Safe
// Records (Ultimate's extension): a field update, a record literal, a map of records and a record
// compared as a whole. Records are eliminated in the IR: one variable (and one map) per field.
type Pair = { fst: int, snd: int };
var m: [int]Pair;

procedure main()
modifies m;
{
  var p: Pair;
  var i: int;
  p := { fst: 1, snd: 2 };
  p!snd := p!fst + 10;
  m[i] := p;
  assert m[i]!snd == 11 && m[i] == { fst: 1, snd: 11 };
}
