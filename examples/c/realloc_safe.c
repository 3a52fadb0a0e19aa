//#Safe
// `realloc` moves an object: the bytes below the old size keep their values, the old pointer is
// freed, and the new object has the new size.
#include <stdlib.h>

int main() {
  int *p = malloc(2 * sizeof(int));
  p[0] = 3;
  p[1] = 4;
  int *q = realloc(p, 3 * sizeof(int));
  q[2] = q[0] + q[1];
  //@ assert q[2] == 7;
  free(q);
  return 0;
}
