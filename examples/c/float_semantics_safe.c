//#Safe
// IEEE 754 semantics of C's float and double (SMT-LIB floating point): each operation rounds to
// nearest in its own type, 0.1f widened is not 0.1 but narrows back to it, 0.1 + 0.2 is not 0.3,
// conversions to integers truncate towards zero, to _Bool any nonzero
// value (here 0.5) is true, and hexadecimal constants are exact.
extern void reach_error(void);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
double half(double x) { return x / 2; }
int main(void) {
  float f = 0.1f;
  double d = 0.1;
  __VERIFIER_assert(f != d);
  __VERIFIER_assert((float)d == f);
  double s = 0.1 + 0.2;
  __VERIFIER_assert(s != 0.3);
  int i = (int)3.99;
  __VERIFIER_assert(i == 3);
  int j = (int)-3.99;
  __VERIFIER_assert(j == -3);
  __VERIFIER_assert(half(5) == 2.5);
  double x = __VERIFIER_nondet_double();
  if (x >= 0.0 && x <= 10.0) {
    double y = x * 0.5;
    __VERIFIER_assert(y <= 5.0);
  }
  float z = __VERIFIER_nondet_float();
  if (z == z) {
    __VERIFIER_assert(z - z == 0.0f || z - z != z - z);
  }
  _Bool b = 0.5;
  __VERIFIER_assert(b);
  __VERIFIER_assert(0x1p-3 == 0.125);
  return 0;
}
