//#Unsafe
// A ledger of accounts, every balance unknown at the start. The account `x` is reset and then
// credited until it holds 500; the audit assumes that account 0 ended with a balance of 1, which
// is only possible when `x` is another account: then `x` holds 500 and the assertion fails.
// No short error trace exists (500 credits), and a witness run with every unknown 0 makes `x` and
// account 0 the same; the run with every unknown 1 fails the assertion.
procedure main()
{
  var x: int;
  var balance: [int]int;
  balance[x] := 0;
  while (balance[x] < 500) {
    balance[x] := balance[x] + 1;
  }
  if (balance[0] == 1) {
    assert balance[x] != 500;
  }
}
