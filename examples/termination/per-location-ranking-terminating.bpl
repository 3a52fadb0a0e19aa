//#Terminating
// x rises by 1 before the inner loop and falls by 2 after it: no linear function of x and y is
// non-increasing on every letter of the outer loop (the letter into the inner loop raises x), but
// one function per location is: x at the outer head, x - 2 at the inner head.
procedure main()
{
  var x: int;
  var y: int;
  while (x > 0) {
    x := x + 1;
    while (y > 0) {
      y := y - 1;
    }
    x := x - 2;
  }
}
