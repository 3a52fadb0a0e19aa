//#Unsafe
// Boogie types named like sorts that solvers reserve (z3: Set, Seq, Float32, RoundingMode) are
// ordinary uninterpreted types.
type Set;
type Seq;
type Float32;
type RoundingMode;
procedure main() {
  var s, t: Set;
  var q: Seq;
  var f: Float32;
  var r, r2: RoundingMode;
  s := t;
  r := r2;
  assert s == t && r == r2;
  assert f == f && q == q;
  assert s != t;
}
