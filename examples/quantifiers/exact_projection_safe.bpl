//#Safe
// The assumption is a quantified fact about the cells of an array. Projections weakened for speed
// drop it (its bound variable indexes a select) and the trace cannot be refuted; the exact
// projection keeps it as a quantified predicate, which the loop preserves.
var a: [int]int;
var x: int;

procedure main() returns ()
modifies x;
{
  assume (exists k: int :: a[k] == 42);
  while (*) {
    x := x + 1;
  }
  assert (exists k: int :: a[k] == 42);
}
