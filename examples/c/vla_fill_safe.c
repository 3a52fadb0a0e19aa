//#Safe
// A variable-length array (C99): `int a[n]` is an object on the stack of `n * sizeof(int)`
// bytes, with `n` evaluated where the declaration is reached (changing `n` afterwards changes
// neither the object nor `sizeof a`). A descending loop zeroes it and an ascending one checks
// every element: the proof needs the quantified invariant that the cells the first loop passed
// hold 0 (`forall k. i < k < n ==> a[k] == 0`, over the memory map at `#addr~a + 4 * k`).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  int a[n];
  int m = n;
  n = 0;
  __VERIFIER_assert(sizeof(a) == m * sizeof(int));
  for (int i = m - 1; i >= 0; i--) a[i] = 0;
  for (int j = 0; j < m; j++) __VERIFIER_assert(a[j] == 0);
  return 0;
}
