//#Unsafe
// call g := P() where bodiless P does NOT modify g and ensures r == g + 1 (g = value during P = value before the call).
// g := 5; after the call g == 6. The path is feasible, so assert false is reachable.
var g: int;
procedure P() returns (r: int);
  ensures r == g + 1;
procedure ULTIMATE.start()
  modifies g;
{
  g := 5;
  call g := P();
  assert false;
}
