//#Unknown control flow depends on unconstrained values
//#Nonterminating
// g(n) returns n for n >= 0, so from n > 1000 the loop after the call adds to r forever.
// The loop is reached only through the call's return, which the descent program over-approximates
// (any result): no ranking function exists (the program does not terminate), and no nontermination
// argument may rest on the return. UNKNOWN until procedure summaries reach termination.
procedure g(n: int) returns (r: int)
{
  if (n <= 0) {
    r := 0;
    return;
  }
  call r := g(n - 1);
  r := r + 1;
}

procedure main()
{
  var n, r: int;
  havoc n;
  call r := g(n);
  while (r > 1000) {
    r := r + 1;
  }
}
