//#Unsafe
// `total += step` on an `_Atomic` global is one atomic read-modify-write of `total`, but `step` (a
// plain global) is read before it, not inside it: the adder reads step = 1, the other thread then
// doubles total (2 → 4) and sets step = 5, and the adder adds the 1 it read — total = 5. Reading
// `step` inside the atomic step would miss that execution (only 6 and 9 are possible then).
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}
_Atomic int total = 2;
int step = 1;
void *adder(void *arg) {
  total += step;
  return 0;
}
void *doubler(void *arg) {
  total *= 2;
  step = 5;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, adder, 0);
  pthread_create(&b, 0, doubler, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (total == 5) {
    reach_error();
    abort();
  }
  return 0;
}
