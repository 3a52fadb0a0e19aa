//#Unsafe
// The second free of the same block is an invalid free.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  free(p);
  if (__VERIFIER_nondet_int()) {
    free(p);
  }
  return 0;
}
