//#Safe no-data-race
// Message passing through an atomic flag: the producer writes `data` and then publishes it with an
// atomic store of `ready`; the consumer reads `data` only after an atomic load saw the flag (the
// read is guarded by a short-circuit `&&`). Atomic accesses never race with each other, and the
// plain accesses of `data` are ordered by the flag, so there is no data race.
#include <pthread.h>

int ready;
int data;
int seen;

void *producer(void *arg) {
  data = 42;
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  return 0;
}

void *consumer(void *arg) {
  int r = __atomic_load_n(&ready, __ATOMIC_ACQUIRE);
  if (r && data == 42) {
    __atomic_fetch_add(&seen, 1, __ATOMIC_RELAXED);
  }
  return 0;
}

int main() {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return seen;
}
