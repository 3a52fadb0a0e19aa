//#Safe
// Each join matches its thread by id and receives that thread's result.
procedure ULTIMATE.start()
{
  var y : int;
  var z : int;
  fork 1 add(5, 1);
  fork 2 add(5, -1);
  join 2 assign z;
  join 1 assign y;
  assert y == 6 && z == 4;
}

procedure add(n : int, d : int) returns (r : int)
{
  r := n + d;
}
