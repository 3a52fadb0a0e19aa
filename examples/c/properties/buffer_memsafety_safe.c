//#Safe valid-memsafety
// A buffer of 4 ints is filled up to a nondeterministic bound within its size and freed: every
// dereference is inside a live object, the free is of its start, and no heap memory is left when
// main returns. The loop ends, so no execution can lose memory and run on: the memtrack check
// where executions end, together with the proof of termination, covers every execution.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  int *buf = malloc(4 * sizeof(int));
  for (int i = 0; i < n; i++) {
    buf[i] = i;
  }
  free(buf);
  return 0;
}
