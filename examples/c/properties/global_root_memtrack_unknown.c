//#Unknown heap memory is not freed where the program ends, but may still be reachable
//#Safe valid-memsafety
// The memory is still pointed to by a global variable when main returns: it is not lost, so
// valid-memtrack holds. The memtrack check (all heap memory freed at the end) is stronger than
// the property here, so its violation is not reported as one: the answer is UNKNOWN.
#include <stdlib.h>
int *table;
int main(void) {
  table = malloc(8 * sizeof(int));
  table[7] = 1;
  return 0;
}
