//#Unsafe
// The assertion fails (e.g. x = 1, y = 2). `x & y` is over-approximated (an uninterpreted function
// with what holds of it in two's complement), so the counterexample is confirmed by evaluating the
// operator at the model's values: the answer is UNSAFE, with the values of the failing run.
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
