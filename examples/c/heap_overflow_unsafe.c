//#Unsafe
// The loop writes one element past the end of the allocation: an invalid dereference.
#include <stdlib.h>

int main(void) {
  int *a = malloc(4 * sizeof(int));
  for (int i = 0; i <= 4; i++) {
    a[i] = i;
  }
  free(a);
  return 0;
}
