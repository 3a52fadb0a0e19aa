//#Safe
// A global array of 100,000 ints without an initialiser is zero (static storage, C11 6.7.9p10):
// the front end sets every cell at once, `~a := ~const~int(0)`, instead of one store per cell
// (which the cell limit refuses). The loop fills a prefix: 3 below 50, 5 from there; the rest
// stays zero. The loop invariant is quantified over the two ranges the guard `i < 50` splits the
// filled cells into.
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
  if (j >= 50 && j < n) __VERIFIER_assert(a[j] == 5);
  if (j >= 0 && j < 50 && j < n) __VERIFIER_assert(a[j] == 3);
  if (j >= n && j < 100000) __VERIFIER_assert(a[j] == 0);
  return 0;
}
