//#Unknown memory safety holds where executions end, but valid-memtrack is not decided
//#Safe valid-memsafety
// The memory is freed before the program spins forever: nothing is lost. But the memtrack checks
// are made where executions end, and this execution never ends, so they say nothing about it (had
// it lost the pointer inside the loop, no check would see it): an execution that may not end
// leaves valid-memtrack undecided.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  *p = __VERIFIER_nondet_int();
  int stop = *p > 0;
  free(p);
  while (!stop) {
  }
  return 0;
}
