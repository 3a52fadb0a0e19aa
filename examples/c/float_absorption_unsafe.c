//#Unsafe
// x + 1.0 > x fails for a double large enough that adding one is absorbed by rounding (and for
// +inf): the counterexample shows the value the solver picked.
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  double x = __VERIFIER_nondet_double();
  if (x > 1.0) {
    __VERIFIER_assert(x + 1.0 > x);
  }
  return 0;
}
