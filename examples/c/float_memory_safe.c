//#Safe
// Floats in memory: a heap array of doubles, calloc's zeros (+0.0), memcpy of doubles, a float
// array that decays to a pointer. Each float type has a memory map of its own (a data kind).
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  double *a = malloc(3 * sizeof(double));
  if (!a) return 0;
  a[0] = 1.0; a[1] = 2.0; a[2] = 0.5;
  double *z = calloc(2, sizeof(double));
  if (!z) return 0;
  __VERIFIER_assert(z[0] == 0.0 && z[1] == 0.0);
  memcpy(z, a, 2 * sizeof(double));
  __VERIFIER_assert(z[1] == 2.0);
  float arr[2] = { 1.0f, 2.0f };
  float *q = arr;
  __VERIFIER_assert(q[0] + q[1] == 3.0f);
  free(a); free(z);
  return 0;
}
