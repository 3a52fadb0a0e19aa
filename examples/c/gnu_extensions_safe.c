//#Safe
// GNU C: statement expressions, typeof, case ranges, __builtin_offsetof; C11 _Static_assert, _Alignof.
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
struct P { int x; int y[2]; };
static inline int sq(int x) { return x * x; }
int main() {
  _Static_assert(sizeof(int) == 4, "int");
  int k = __VERIFIER_nondet_int();
  int r = ({ int t = 3; t + 1; });
  if (r != 4) __VERIFIER_error();
  __typeof__(k) z = 5;
  if (sq(z) != 25) __VERIFIER_error();
  switch (k) { case 1 ... 3: if (k < 1 || k > 3) __VERIFIER_error(); break; default: break; }
  struct P p = { .y[1] = 7, .x = 2 };
  if (p.y[1] != 7 || p.y[0] != 0) __VERIFIER_error();
  unsigned long o = __builtin_offsetof(struct P, y);
  if (o != 4) __VERIFIER_error();
  if (_Alignof(long long) < 4) __VERIFIER_error();
  int arr[] = { [2] = 5, [0] = 1 };
  if (sizeof arr != 12) __VERIFIER_error();
  return 0;
}
