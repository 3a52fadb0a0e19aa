//#Unsafe
// Reading a block after it is freed is an invalid dereference.
#include <stdlib.h>

int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  p[1] = 2;
  free(p);
  return p[1];
}
