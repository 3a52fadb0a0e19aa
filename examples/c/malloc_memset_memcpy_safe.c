//#Safe
// `memset` and `memcpy` of a size known only at run time: over whole heap objects they zero
// and copy the objects' memory rows, exactly.
#include <stdlib.h>
#include <string.h>
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 100) return 0;
  int *a = malloc(n * sizeof(int));
  int *b = malloc(n * sizeof(int));
  if (!a || !b) return 0;
  memset(a, 0, n * sizeof(int));
  a[n - 1] = 5;
  memcpy(b, a, n * sizeof(int));
  if (b[0] != 0 || b[n - 1] != 5) __VERIFIER_error();
  free(a); free(b);
  return 0;
}
