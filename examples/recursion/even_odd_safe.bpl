//#Safe
// Mutual recursion: even and odd call each other; the caller's local k survives both calls.
procedure even(n: int) returns (r: bool)
{
  if (n == 0) { r := true; } else { call r := odd(n - 1); }
}

procedure odd(n: int) returns (r: bool)
{
  if (n == 0) { r := false; } else { call r := even(n - 1); }
}

procedure ULTIMATE.start()
{
  var k: int;
  var e: bool;
  assume k >= 0 && k <= 4;
  call e := even(2 * k);
  assert e;
  assert k <= 4;
}
