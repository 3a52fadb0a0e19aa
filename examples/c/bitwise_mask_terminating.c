//#Terminating
// `x & y` is translated as an over-approximated operation constrained by implications over its
// operands (sign, bounds, neutral and absorbing operands), each a case split: the loop's relation
// has too many disjuncts for a ranking function. With the supporting invariant `mask == 0` the
// implications over `mask` decide (`x & 0 == 0`), and `x` ranks the loop.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int mask = 0;
  while (x > 0) {
    x = x & mask;
  }
  return 0;
}
