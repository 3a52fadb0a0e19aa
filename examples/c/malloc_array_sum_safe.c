//#Safe
// One loop fills a heap array with 1, another sums it: the sum equals the length. The first
// loop's quantified invariant (`forall k. 0 <= k < i ==> a[k] == 1`, a strided fill of the memory
// row at `a.offset + 4 * k`) holds at the second loop, but the fact the assertion needs there,
// `sum == j`, is inductive only with it: the synthesis runs again on the letters strengthened by
// the invariants, each quantifier instantiated at the cell the letter reads (`a[j] == 1` where
// `0 <= j < i` holds), which makes the sum's step `sum := sum + 1` for Karr's analysis.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error() {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }

int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 10000) return 0;
  int *a = malloc(sizeof(int) * n);
  if (!a) return 0;
  long long sum = 0;
  for (int i = 0; i < n; i++) a[i] = 1;
  for (int j = 0; j < n; j++) sum = sum + a[j];
  __VERIFIER_assert(sum == n);
  free(a);
  return 0;
}
