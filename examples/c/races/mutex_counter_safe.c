//#Safe no-data-race
// Two threads increment a shared counter under a mutex, and main reads it only after joining both:
// every pair of conflicting accesses is ordered by the mutex or by the joins.
#include <pthread.h>

int counter;
pthread_mutex_t m;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
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
