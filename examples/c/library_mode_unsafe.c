//#Unsafe
// A file without `main` (library mode, as in Ultimate): a run calls one of the functions it
// defines, with arbitrary integer arguments, after the globals are initialised.
#include <assert.h>

int counter;

void reset(void) { counter = 0; }

int step(int k) {
  if (k > 0 && k < 10) {
    counter = counter + k;
  }
  // counter starts at 0: `step(7)` violates this
  assert(counter != 7);
  return counter;
}
