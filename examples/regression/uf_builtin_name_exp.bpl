//#Unsafe
// A user function named like a solver built-in is uninterpreted: the axiom is consistent, so
// `assert false` fails. z3 accepted `(declare-fun exp (Real) Real)` and then read `(exp 0.0)` as its
// transcendental `exp` (= 1), making the axiom inconsistent: a wrong SAFE, fixed by always suffixing
// solver symbols of functions (`exp!1`).
function exp(x: real): real;
axiom exp(0.0) == 2.0;
procedure main() { assert false; }
