//#Terminating
// A boolean in a lexicographic ranking function: each iteration either decrements x or clears b,
// so (if b then 1 else 0) never increases and falls when b is cleared, and x falls otherwise.
procedure main()
{
  var b: bool;
  var x: int;
  while (x >= 0 && b) {
    if (*) {
      x := x - 1;
    } else {
      b := false;
    }
  }
}
