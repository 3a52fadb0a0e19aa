//#Nonterminating
// From a positive n the recursion counts up and never reaches 0: an infinite chain of calls, none
// of which returns. In the descent program (a call either descends into the callee for good or
// returns with any result, the latter an over-approximation no argument rests on) the chain is a
// lasso of descents only, so its geometric nontermination argument is one for the program.
procedure f(n: int)
{
  if (n != 0) {
    call f(n + 1);
  }
}

procedure main()
{
  var n: int;
  havoc n;
  call f(n);
}
