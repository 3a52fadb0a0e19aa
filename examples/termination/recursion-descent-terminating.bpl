//#Terminating
// Ackermann's function terminates, though no loop of the program shows it: each call descends
// either to a smaller m, or to the same m and a smaller n. The ranking prover works on the descent
// program (a call of a recursive procedure descends into the callee for good, or returns with any
// result): its runs are the chains of calls, ranked lexicographically by m, then n; an infinite
// execution of the program would be an infinite run there.
procedure ack(m: int, n: int) returns (r: int)
{
  if (m <= 0) {
    r := n + 1;
    return;
  }
  if (n <= 0) {
    call r := ack(m - 1, 1);
    return;
  }
  call r := ack(m, n - 1);
  call r := ack(m - 1, r);
}

procedure main()
{
  var m, n, r: int;
  havoc m, n;
  if (m >= 0 && n >= 0) {
    call r := ack(m, n);
  }
}
