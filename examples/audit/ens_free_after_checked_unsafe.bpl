//#Unsafe
procedure p(x: int) returns (r: int)
  ensures r >= x;
  free ensures r == x + 10;
{
  r := x - 1;
}
