//#Unsafe
// Minimal: bodiless P modifies g, ensures g == 0 && r == 1. call g := P() makes g == 1 (Boogie:
// havoc g; havoc r; assume ensures; g := r). The path is feasible, so assert false is reachable.
var g: int;
procedure P() returns (r: int);
  modifies g;
  ensures g == 0 && r == 1;
procedure ULTIMATE.start()
  modifies g;
{
  call g := P();
  assert false;
}
