//#Unsafe
// As in global_array_large_safe.c, but the cells the loop did not reach are zero, not 5.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }

int a[100000];

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  for (int i = 0; i < n; i++) {
    if (i < 50) a[i] = 3; else a[i] = 5;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= n && j < 100000) __VERIFIER_assert(a[j] == 5);
  return 0;
}
