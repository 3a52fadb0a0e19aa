//#Unsafe
// The ledger walk books 4 instead of the net 3: once all three walks have passed account k,
// its balance and its ledger entry differ by one.
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
  while (i < n) { ledger[i] := ledger[i] + 4; i := i + 1; }
}
