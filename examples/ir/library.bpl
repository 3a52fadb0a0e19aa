//#Unsafe
// No `main` or `ULTIMATE.start`: every procedure with a body is an entry (library mode), started in any
// state satisfying its requires. `decr` can violate its ensures for x == 0.
procedure decr(x: int) returns (y: int)
  requires x >= 0;
  ensures y >= 0;
{
  y := x - 1;
}

procedure caller() returns (z: int)
{
  call z := decr(3);
}
