//#Unsafe
// inlined version: P with body sets g := 2 and returns r := 1; call g := P() -> g == 1.
var g: int;
procedure P() returns (r: int)
  modifies g;
{
  g := 2;
  r := 1;
}
procedure ULTIMATE.start()
  modifies g;
{
  call g := P();
  assert g == 2;
}
