//#Safe
// An enumeration without negative enumerators is an `unsigned int` (GCC's choice; C11 6.7.2.2p4
// leaves it to the implementation): -1 converted to it is never negative, and a 2-bit bit-field
// of it holds 2.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "enum_unsigned_safe.c", 6, "reach_error"); }

enum mode { OFF, ON, AUTO };
struct device { enum mode m : 2; };

int main() {
  enum mode x = (enum mode)-1;
  struct device d;
  d.m = AUTO;
  if (x < 0 || d.m != AUTO) {
    reach_error();
  }
  return 0;
}
