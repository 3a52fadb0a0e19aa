//#Safe
// The free postcondition is never checked: r == 1 satisfies the checked one only.
procedure p() returns (r: int)
  free ensures r > 5;
  ensures r > 0;
{
  r := 1;
}
