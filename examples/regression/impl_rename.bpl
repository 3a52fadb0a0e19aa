//#Safe
// implementation renames params position-wise: impl's y is the procedure's x (first param).
// s := y - x in impl = first - second = proc's x - y. ensures r == x - y holds.
procedure P(x: int, y: int) returns (r: int);
  ensures r == x - y;
implementation P(y: int, x: int) returns (s: int) { s := y - x; }
procedure ULTIMATE.start() { var z: int; call z := P(10, 3); assert z == 7; }
