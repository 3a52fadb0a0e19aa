//#Safe
// same as above; assert g == 6 is true.
var g: int;
procedure P() returns (r: int);
  ensures r == g + 1;
procedure ULTIMATE.start()
  modifies g;
{
  g := 5;
  call g := P();
  assert g == 6;
}
