//#Safe
// Two threads increment a shared counter under a mutex; after both joins it is 2.
#include <pthread.h>
extern void reach_error(void);

int counter = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg) {
  pthread_mutex_lock(&lock);
  int tmp = counter;
  counter = tmp + 1;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, NULL, inc, NULL);
  pthread_create(&t2, NULL, inc, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  if (counter != 2) {
    reach_error();
  }
  return 0;
}
