//#Safe
// C11 makes `cnt++` on an `_Atomic` object one atomic read-modify-write, so both increments
// count (split into a read and a write, one increment could be lost). An `_Atomic` global of an
// integer type (here through a typedef, as `<stdatomic.h>`'s `atomic_int`) gets its `++`, `--` and
// compound assignments translated as one atomic step; its accesses never race.
#include <pthread.h>
extern void abort(void);
void reach_error(void) {}
typedef _Atomic int counter;
counter cnt = 0;
void *worker(void *arg) {
  cnt++;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (cnt != 2) {
    reach_error();
    abort();
  }
  return 0;
}
