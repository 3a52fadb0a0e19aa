//#Safe
// same as sum_ret_global2 but asserts the right value g == 5
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
  assert g == 5;
}
