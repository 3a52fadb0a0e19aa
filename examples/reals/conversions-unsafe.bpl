//#Unsafe
// int(e) is the floor: for a negative odd n, int(real(n) / 2.0) * 2 is below n.
procedure main()
{
  var n: int;
  var half: real;
  half := real(n) / 2.0;
  assert int(half) * 2 >= n - 1 && int(half) * 2 <= n && n >= -2;
}
