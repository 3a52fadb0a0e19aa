//#Unsafe
// Without the mutex the two read-increment-write sequences interleave and an update is lost.
#include <pthread.h>
extern void reach_error(void);

int counter = 0;

void *inc(void *arg) {
  int tmp = counter;
  counter = tmp + 1;
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
