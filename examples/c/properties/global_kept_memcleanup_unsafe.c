//#Unsafe valid-memcleanup
// The table is still pointed to by a global variable when main returns: nothing is lost
// (valid-memtrack holds), but it is not freed before the program ends, which valid-memcleanup asks.
#include <stdlib.h>
int *table;
int main(void) {
  table = malloc(8 * sizeof(int));
  table[7] = 1;
  return 0;
}
