//#Unsafe
// A pointer from a small integer points to no object: the integer round trip is exact, so the
// violation is real (n = 7) and reported.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  void *p = (void *)(n + 1);
  if ((long)p == 8) reach_error();
  return 0;
}
