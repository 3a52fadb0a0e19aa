//#Unknown the error trace depends on an over-approximation
//#Unsafe
// The assertion fails (x = 1, y = 2), but the counterexample goes through the over-approximated
// `x & y`: it is not reported as a violation, and the answer is UNKNOWN.
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x <= 0 || y <= 0) {
    return 0;
  }
  //@ assert (x & y) != 0;
  return 0;
}
