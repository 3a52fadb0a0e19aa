//#Unsafe
// reach_error() is reachable when the loop runs ten times.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int count(int n) {
  int c = 0;
  while (c < n) {
    c++;
  }
  return c;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  if (count(n) == 10) {
    reach_error();
  }
  return 0;
}
