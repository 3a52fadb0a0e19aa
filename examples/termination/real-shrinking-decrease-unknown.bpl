//#Unknown control flow depends on unconstrained values
//#Nonterminating
// `x` falls by `y`, which halves in every iteration: the decreases sum to at most `2 * y`, so a
// run from `0 <= x < 2 * y` never leaves the loop (a Zeno run). `y` is positive but not a loop
// constant, so it is no decrease of a ranking function; the answer is UNKNOWN, never TERMINATING.
procedure main(y0: real) returns (x: real)
{
  var y: real;
  y := y0;
  assume y > 0.0;
  while (x >= 0.0) {
    x := x - y;
    y := y / 2.0;
  }
}
