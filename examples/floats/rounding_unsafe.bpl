//#Unsafe
// IEEE 754 double precision with round-to-nearest-even: 0.1 + 0.2 is not 0.3 (the floating-point
// theory of SMT-LIB through `{:builtin}` functions, as Ultimate's C translation writes it).
type { :builtin "FloatingPoint" } { :indices 11, 53 } double;
type { :builtin "RoundingMode" } RoundingMode;
function { :builtin "RNE" } RNE() returns (RoundingMode);
function { :builtin "to_fp" } { :indices 11, 53 } toDouble(rm : RoundingMode, r : real) returns (double);
function { :builtin "fp.add" } fpAdd(rm : RoundingMode, x : double, y : double) returns (double);
function { :builtin "fp.eq" } fpEq(x : double, y : double) returns (bool);

procedure main()
{
  var a, b, sum : double;
  a := toDouble(RNE(), 0.1);
  b := toDouble(RNE(), 0.2);
  sum := fpAdd(RNE(), a, b);
  assert fpEq(sum, toDouble(RNE(), 0.3));
}
