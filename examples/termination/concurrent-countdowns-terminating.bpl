//#Terminating
// Two threads count down different variables while the main thread waits for both. Every infinite
// interleaving would run one of the loops forever, and each loop lowers its counter: the Büchi
// loop ranks the lassos of the interleaving product, whichever thread they belong to.
var x, y: int;

procedure ULTIMATE.start()
modifies x, y;
{
  fork 1 countX();
  fork 2 countY();
  join 1;
  join 2;
}

procedure countX()
modifies x;
{
  while (x > 0) { x := x - 1; }
}

procedure countY()
modifies y;
{
  while (y > 0) { y := y - 2; }
}
