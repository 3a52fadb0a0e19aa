//#Terminating
// The counter runs from id + 1 up past maxId, wraps around to 0 and runs up to id (Gulwani, Jain,
// Koskinen, PLDI 2009, Fig. 1). No linear ranking function covers both branches; the Büchi loop
// ranks the increments (maxId - tmp) and must show that the counter wraps only once: after the
// wrap tmp <= id, which the increments keep (tmp != id) and which rules out a second wrap
// (tmp > maxId > id). Interpolants of one unrolling count (tmp = 0, tmp = 1, …), so after a few
// finite refinements the letters' own comparisons join the candidates, tmp <= id among them
// (tests/cli.rs runs the Büchi loop alone). By default the loop is ranked first as a whole:
// piecewise, discriminated by the comparison of tmp with id.
procedure main()
{
  var id, maxId, tmp: int;
  havoc id, maxId;
  if (0 <= id && id < maxId) {
    tmp := id + 1;
    while (tmp != id) {
      if (tmp <= maxId) {
        tmp := tmp + 1;
      } else {
        tmp := 0;
      }
    }
  }
}
