//#Unsafe no-overflow
// The sum of n nondeterministic positive values can leave the range of int.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  for (int i = 0; i < n; i++) {
    int x = __VERIFIER_nondet_int();
    if (x < 0) x = 0;
    s = s + x;
  }
  return s > 0;
}
