//#Safe
// A loop program: the counter ends at n.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000) return 0;
  unsigned int i = 0;
  unsigned int s = 0;
  for (i = 0; i < n; i++) {
    s += 2;
  }
  if (s != 2 * n) {
    reach_error();
  }
  return 0;
}
