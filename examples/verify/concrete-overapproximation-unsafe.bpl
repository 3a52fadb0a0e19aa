//#Unsafe
// An `{:overapproximation}` function with a `{:concrete}` operation: the proof search treats
// `band` as uninterpreted (with what the program assumes of it), and a counterexample through it is
// reported only once a model gives every application the operation's value (e.g. x = 8, y = 9:
// 8 & 9 == 8).
function {:overapproximation "bitwiseAnd"} {:concrete "and"} band(x: int, y: int) returns (int);

procedure main()
{
  var x, y, r: int;
  havoc x, y;
  assume 0 <= x && x < 16 && 0 <= y && y < 16;
  r := band(x, y);
  assume 0 <= r && r <= x && r <= y;
  assert r != 8 || x == y;
}
