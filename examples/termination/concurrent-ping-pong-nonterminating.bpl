//#Nonterminating
// One thread raises x while it is below n, the other lowers it while it is positive. Neither loop
// runs forever alone, but taking turns (up, down, up, …) they never stop: the lasso's loop has
// letters of both threads, and the waiting main thread cannot move (fair).
var x, n: int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  fork 1 up();
  fork 2 down();
  join 1;
  join 2;
}

procedure up()
modifies x;
{
  while (x < n) { x := x + 1; }
}

procedure down()
modifies x;
{
  while (x > 0) { x := x - 1; }
}
