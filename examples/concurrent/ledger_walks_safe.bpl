//#Safe
// Three threads walk over the accounts: one deposits 5 into each balance, one takes a fee of 2
// from each, one books the net 3 into the ledger. The ledger started as a copy of the balances,
// so whatever the interleaving, each account ends as the ledger says. The proof counts, for one
// account k, which walks have passed it: bal[k] - ledger[k] == 5·[k < i1] - 2·[k < i2] - 3·[k < i3].
var bal, ledger: [int]int;
var n, k: int;

procedure ULTIMATE.start()
modifies bal, ledger;
{
  assume 0 <= k && k < n;
  ledger := bal;
  fork 1 deposit();
  fork 2 fee();
  fork 3 book();
  join 1;
  join 2;
  join 3;
  assert bal[k] == ledger[k];
}

procedure deposit()
modifies bal;
{
  var i: int;
  i := 0;
  while (i < n) { bal[i] := bal[i] + 5; i := i + 1; }
}

procedure fee()
modifies bal;
{
  var i: int;
  i := 0;
  while (i < n) { bal[i] := bal[i] - 2; i := i + 1; }
}

procedure book()
modifies ledger;
{
  var i: int;
  i := 0;
  while (i < n) { ledger[i] := ledger[i] + 3; i := i + 1; }
}
