//#Terminating
// The loop terminates because the `where` clause of `n` is assumed at the start: `n` is never
// negative, so counting down by one reaches 0.
var n: int where n >= 0;

procedure main() returns ()
modifies n;
{
  while (n != 0) {
    n := n - 1;
  }
}
