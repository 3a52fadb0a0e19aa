//#Safe
// A spinlock from __atomic_test_and_set / __atomic_clear: the increments do not interleave.
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

bool lock = false;
int counter = 0;

void *worker(void *arg) {
  while (__atomic_test_and_set(&lock, __ATOMIC_ACQUIRE)) {
  }
  int c = counter;
  counter = c + 1;
  __atomic_clear(&lock, __ATOMIC_RELEASE);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
