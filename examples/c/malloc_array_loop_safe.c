//#Safe
// An array of `n` ints on the heap, filled and summed by two loops, then freed. The allocation's
// size is `(n * sizeof(int)) mod 2^32` (an unsigned conversion, then an unsigned product); the
// guard `1 <= n <= 100` keeps it `4 * n`, which the translation's letters and the interpolants say
// without the `mod`, and the length the allocation stores is an invariant of both loops.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100) return 0;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  free(a);
  return 0;
}
