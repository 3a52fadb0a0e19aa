//#Unsafe no-data-race
// The same counter without the mutex: the two threads can write `counter` at the same time.
#include <pthread.h>

int counter;

void *worker(void *arg) {
  counter = counter + 1;
  return 0;
}

int main() {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter;
}
