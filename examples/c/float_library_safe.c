//#Safe
// <math.h> on floats: NaN is unordered (x != x), fabs, sqrt, round (ties away from zero) against
// rint (ties to even), INFINITY and HUGE_VAL, the sign of zero, copysign, fmin ignoring a NaN,
// fpclassify of a subnormal, and float's 24-bit significand absorbing 1 at 2^24.
#include <math.h>
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assert(isnan(x) || fabs(x) >= 0.0);
  __VERIFIER_assert(!isnan(x) || x != x);
  __VERIFIER_assert(sqrt(4.0) == 2.0);
  __VERIFIER_assert(round(2.5) == 3.0 && rint(2.5) == 2.0);
  __VERIFIER_assert(isinf(INFINITY) && !isinf(HUGE_VAL - HUGE_VAL));
  __VERIFIER_assert(signbit(-0.0) && !signbit(0.0) && -0.0 == 0.0);
  __VERIFIER_assert(copysign(3.0, -1.0) == -3.0);
  __VERIFIER_assert(fmin(NAN, 1.0) == 1.0);
  __VERIFIER_assert(fpclassify(1e-310) == FP_SUBNORMAL);
  float f = 16777216.0f;
  __VERIFIER_assert(f + 1.0f == f);
  return 0;
}
