//#Unknown the error trace depends on an over-approximation
//#Unsafe
// An `{:overapproximation}` function without a `{:concrete}` operation: a counterexample through
// it is never reported (the function stands for an operation the engine cannot evaluate).
function {:overapproximation "bitwiseNand"} nand(x: int, y: int) returns (int);

procedure main()
{
  var x, r: int;
  havoc x;
  r := nand(x, x);
  assert r != 3;
}
