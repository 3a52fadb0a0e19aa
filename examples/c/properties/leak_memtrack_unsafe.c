//#Unsafe valid-memsafety
// The buffer is freed only on one branch: on the other, main returns with the memory still
// allocated and no global variable that could point to it, so it is lost (valid-memtrack).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *buf = malloc(4 * sizeof(int));
  buf[0] = __VERIFIER_nondet_int();
  if (buf[0] > 0) {
    free(buf);
  }
  return 0;
}
