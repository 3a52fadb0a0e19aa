//#Unsafe
// A free postcondition written first must not guard the checked one after it.
procedure p() returns (r: int)
  free ensures r > 5;
  ensures r > 0;
{
  r := -1;
}
