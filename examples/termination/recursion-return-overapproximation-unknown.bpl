//#Unknown control flow depends on unconstrained values
//#Terminating
// g always returns 0, so the loop after the call is never entered and the program terminates. In
// the descent program the call may return any result, and `while (r > 0) {}` then spins on a
// state it maps to itself; that lasso passes through the return, an over-approximation, so it is
// no nontermination argument (NONTERMINATING here would be a wrong verdict). No ranking function
// exists for the spinning loop of the descent program either: UNKNOWN.
procedure g(n: int) returns (r: int)
{
  if (n <= 0) {
    r := 0;
    return;
  }
  call r := g(n - 1);
  r := 0;
}

procedure main()
{
  var n, r: int;
  havoc n;
  call r := g(n);
  while (r > 0) {
  }
}
