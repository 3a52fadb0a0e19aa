//#Safe
// calloc zeroes its block; every access is in bounds and each block is freed once.
#include <stdlib.h>
extern void reach_error(void);

int main(void) {
  int *a = calloc(3, sizeof(int));
  int *b = malloc(sizeof(int));
  *b = 5;
  a[1] = *b;
  if (a[0] != 0 || a[1] != 5 || a[2] != 0) reach_error();
  free(b);
  free(a);
  return 0;
}
