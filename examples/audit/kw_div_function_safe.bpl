//#Safe
// A function named `div` and a procedure named `mod` with a parameter named `lambda`.
function div(a: int, b: int) returns (int) { a / b }

procedure mod(lambda: int) returns (r: int)
  requires lambda >= 0;
  ensures r == div(lambda, 2) % 3;
{
  r := div(lambda, 2) % 3;
}
