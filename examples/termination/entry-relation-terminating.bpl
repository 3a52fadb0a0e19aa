//#Terminating
// The loop keeps x - y == 10, which holds on entry: y := 2 * y - x; x := (y + x) / 2 sets x to
// the old y, so x drops by 10 in each iteration (Leike, Heizmann, ATVA 2013, Fig. 2). The
// division hides the relation from Karr's analysis; the relation on the loop head's first visit is
// a candidate invariant, which the solver then proves inductive.
procedure main()
{
  var x, y: int;
  x := y + 10;
  while (x >= 0) {
    y := 2 * y - x;
    x := (y + x) / 2;
  }
}
