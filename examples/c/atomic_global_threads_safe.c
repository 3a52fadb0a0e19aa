//#Unknown unsupported: `_Atomic` object in a program with threads
//#Safe
// C11 makes `cnt++` on an `_Atomic` object one atomic read-modify-write, so both increments
// count. The translation would split it into a read and a write (the interleaving that loses an
// increment is then a false alarm), so a program with threads and `_Atomic` objects is not
// translated. Without threads the qualifier changes nothing and is ignored
// (atomic_qualifier_safe.c).
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
