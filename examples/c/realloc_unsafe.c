//#Unsafe
// The byte beyond the old size of a grown object is indeterminate: the assertion can fail.
#include <stdlib.h>

int main() {
  int *p = malloc(sizeof(int));
  *p = 7;
  int *q = realloc(p, 2 * sizeof(int));
  //@ assert q[0] == 7;
  //@ assert q[1] == 0;
  free(q);
  return 0;
}
