//#Safe
// Proofs treat C's bitwise operators as uninterpreted functions (an over-approximation), but the
// explicit-state executor evaluates them on concrete values: this program has one execution, on
// which `^`, `&`, `|`, `<<` and `>>` have their two's-complement values (the expected values are
// what gcc's build of the program prints), so it is decided by running it.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "bitwise_execution_safe.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } }

int main() {
  unsigned int h = 2166136261u;
  for (int i = 0; i < 8; i++) {
    h = (h ^ (unsigned int)i) * 16777619u;
  }
  int m = -77;
  int low = m & 0xff;
  int mixed = (m | 12) ^ (m >> 2);
  unsigned int rot = (h << 5) | (h >> 27);
  __VERIFIER_assert(h == 1811325981u);
  __VERIFIER_assert(low == 179);
  __VERIFIER_assert(mixed == 83);
  __VERIFIER_assert(rot == 2127856557u);
  return 0;
}
