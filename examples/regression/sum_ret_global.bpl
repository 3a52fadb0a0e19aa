//#Unsafe
// call g := P() where bodiless P modifies g and ensures r == 1 && g == 2.
// Boogie semantics: havoc g, r; assume r==1 && g==2; then g := r, so g == 1 afterwards; assert g == 2 fails.
var g: int;
procedure P() returns (r: int);
  modifies g;
  ensures r == 1 && g == 2;
procedure ULTIMATE.start()
  modifies g;
{
  call g := P();
  assert g == 2;
}
