//#Safe
// Enumeration constants as GCC types them: `int` where the value fits, else the enumeration's
// type, which is `unsigned int`, `int` or a 64-bit type as the values need (C11 6.7.2.2 allows
// only `int` values; GCC extends it). 0x80000000u is not negative; Q needs 64 bits.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "enum_wide_constants_safe.c", 7, "reach_error"); }

enum high { HIGH = 0x80000000u };
enum wide { P = 1, Q = 0x100000000LL };
enum mixed { J = -3, K = 0xffffffffu };

int main() {
  enum high h = HIGH;
  if (HIGH < 0 || h < 0) reach_error();
  if (P - 2 >= 0 || sizeof(P) != 4) reach_error();
  if (sizeof(Q) != 8 || sizeof(enum wide) != 8) reach_error();
  enum mixed m = J;
  if (K < 0 || sizeof(K) != 8 || m >= 0) reach_error();
  return 0;
}
