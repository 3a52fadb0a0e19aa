//#Safe
// C division truncates towards zero (-7 / 2 == -3, -7 % 2 == -1), unlike Euclidean div/mod.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); } }

int main(void) {
  int a = -7;
  int b = 2;
  __VERIFIER_assert(a / b == -3);
  __VERIFIER_assert(a % b == -1);
  __VERIFIER_assert(7 / -2 == -3);
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (y != 0 && x > -1000 && x < 1000 && y > -10 && y < 10) {
    __VERIFIER_assert((x / y) * y + x % y == x);
    __VERIFIER_assert(x >= 0 || x % y <= 0);
  }
  return 0;
}
