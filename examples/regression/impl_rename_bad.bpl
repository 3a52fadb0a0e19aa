//#Unsafe
// position-wise: impl computes first - second; ensures claims r == y - x (second - first): fails unless x == y.
procedure P(x: int, y: int) returns (r: int);
  ensures r == y - x;
implementation P(y: int, x: int) returns (s: int) { s := y - x; }
