//#Nonterminating
// As piecewise-minimum-terminating.bpl, but the minimum of x and y need not fall: from x = y = 1
// the first branch can repeat forever (y := 1, x := 1). The piecewise template must find nothing.
procedure main()
{
  var x, y: int;
  while (x > 0 && y > 0) {
    if (x <= y) {
      y := x;
      havoc x;
    } else {
      x := y - 1;
      havoc y;
    }
  }
}
