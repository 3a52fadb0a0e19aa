//#Unsafe
// `join … assign` receives the thread's return value; thread 2 returns n - 1, not n + 1.
procedure ULTIMATE.start()
{
  var y : int;
  var z : int;
  fork 1 add(5, 1);
  fork 2 add(5, -1);
  join 1 assign y;
  join 2 assign z;
  assert y == 6;
  assert z == 6;
}

procedure add(n : int, d : int) returns (r : int)
{
  r := n + d;
}
