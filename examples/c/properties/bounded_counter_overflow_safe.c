//#Safe no-overflow
// Every signed operation stays in range: the counter is below n, which is an int, so i + 1 cannot
// overflow; the product is of values below 1000 in magnitude; unsigned arithmetic wraps by
// definition.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned h = 0;
  for (int i = 0; i < n; i++) {
    h = h * 31u + 7u;
  }
  int a = __VERIFIER_nondet_int();
  if (a > -1000 && a < 1000) {
    a = a * a - 1;
  }
  return (int) (h % 2u) + (a > 0);
}
