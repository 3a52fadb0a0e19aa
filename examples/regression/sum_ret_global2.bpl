//#Unsafe
// call g := P() where bodiless P modifies g, ensures g == old(g) + 1 and r == old(g).
// After: g := r, i.e. g == old g. Assert g == 6 fails (g == 5).
var g: int;
procedure P() returns (r: int);
  modifies g;
  ensures g == old(g) + 1;
  ensures r == old(g);
procedure ULTIMATE.start()
  modifies g;
{
  g := 5;
  call g := P();
  assert g == 6;
}
