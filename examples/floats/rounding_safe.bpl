//#Safe
// Half precision: a difference rounded downwards is never more than the same difference rounded
// upwards (unless it is NaN), and a float equal to itself under fp.eq is not NaN.
type { :builtin "FloatingPoint" } { :indices 5, 11 } half;
type { :builtin "RoundingMode" } RoundingMode;
function { :builtin "RTN" } RTN() returns (RoundingMode);
function { :builtin "RTP" } RTP() returns (RoundingMode);
function { :builtin "fp.sub" } fpSub(rm : RoundingMode, x : half, y : half) returns (half);
function { :builtin "fp.leq" } fpLeq(x : half, y : half) returns (bool);
function { :builtin "fp.eq" } fpEq(x : half, y : half) returns (bool);
function { :builtin "fp.isNaN" } isNaN(x : half) returns (bool);

procedure main()
{
  var x, y, down, up : half;
  down := fpSub(RTN(), x, y);
  up := fpSub(RTP(), x, y);
  assert isNaN(down) || fpLeq(down, up);
  if (fpEq(x, x)) {
    assert !isNaN(x);
  }
}
