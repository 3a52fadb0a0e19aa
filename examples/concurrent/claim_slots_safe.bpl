//#Safe
// Seven workers, forked by seven statements, claim open slots of a table by test-and-set and
// stamp the slots they own with their number; the first worker checks that its stamp stays.
// The interleavings grow exponentially with the number of workers, but the proof does not: the
// six plain workers are instances of one procedure, summarised by one representative in a
// thread-modular view (an owned slot is not open, two owners differ), whatever their number.
var stamp : [int]int;
var open : [int]bool;

procedure ULTIMATE.start()
modifies stamp, open;
{
  fork 1 checker(1);
  fork 2, 2 worker(2);
  fork 3, 3 worker(3);
  fork 4, 4 worker(4);
  fork 5, 5 worker(5);
  fork 6, 6 worker(6);
  fork 7, 7 worker(7);
}

procedure claim(s : int) returns (ok : bool)
modifies open;
{
  atomic {
    ok := open[s];
    if (ok) {
      open[s] := false;
    }
  }
}

procedure checker(me : int)
modifies stamp, open;
{
  var s : int;
  var ok : bool;
  s := 0;
  while (true) {
    call ok := claim(s);
    if (ok) {
      stamp[s] := me;
      assert stamp[s] == me;
    }
    s := s + 1;
  }
}

procedure worker(me : int)
modifies stamp, open;
{
  var s : int;
  var ok : bool;
  s := 0;
  while (true) {
    call ok := claim(s);
    if (ok) {
      stamp[s] := me;
    }
    s := s + 1;
  }
}
