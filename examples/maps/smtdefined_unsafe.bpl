//#Unsafe
// An `{:smtdefined}` function's definition is what the solver sees: lin(1, 2) is 5, not 4.
function { :smtdefined "(+ x (* 2 y))" } lin(x : int, y : int) returns (int);

procedure main()
{
  assert lin(1, 2) == 4;
}
