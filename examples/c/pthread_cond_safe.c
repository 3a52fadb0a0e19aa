//#Safe
// The waiting loop of a condition variable: `ready` holds when it ends, and the producer could
// take the mutex while the consumer waited.
#include <pthread.h>
extern void __VERIFIER_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main() {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  if (data != 42) __VERIFIER_error();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
