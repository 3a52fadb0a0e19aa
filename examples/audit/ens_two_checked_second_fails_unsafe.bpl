//#Unsafe
procedure p(x: int) returns (r: int)
  free ensures r > 100;
  ensures r >= 0;
  ensures r > 0;
{
  r := 0;
}
