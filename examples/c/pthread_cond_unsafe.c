//#Unsafe
// A condition wait releases the mutex (so the producer can run) and may wake up spuriously
// (POSIX allows it): without a loop around the wait, `ready` may still be 0.
#include <pthread.h>
extern void __VERIFIER_error(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}

int main() {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  pthread_mutex_lock(&m);
  if (!ready) pthread_cond_wait(&c, &m);
  if (!ready) __VERIFIER_error();
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
