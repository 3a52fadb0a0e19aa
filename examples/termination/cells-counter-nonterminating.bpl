//#Nonterminating
// A counter in a map cell: the loop increments tape[pos] forever, so no state repeats and the
// executor gives up; the geometric nontermination argument takes the cell tape[pos] as a state
// variable (pos is clamped at 0, so the cell read after the cycle is the same one) and runs along
// the direction "tape[pos] grows by 2".
procedure main()
{
  var pos: int;
  var tape: [int]int;
  pos := 0;
  tape[0] := 1;
  while (tape[pos] != 0) {
    tape[pos] := tape[pos] + 2;
    pos := pos - 1;
    if (pos < 0) {
      pos := 0;
    }
  }
}
