//#Safe
// requires over proc names: x > y. impl names swapped; impl asserts (first > second) = y > x in impl names.
procedure P(x: int, y: int);
  requires x > y;
implementation P(y: int, x: int) { assert y > x; }
