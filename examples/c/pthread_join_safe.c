//#Safe
// Thread ids in an array: each join waits for the thread its id names, so after joining
// threads[0] the first worker has written `done0` (the second may still be running).
#include <pthread.h>
extern void reach_error(void);

int done0 = 0;
int done1 = 0;

void *first(void *arg) {
  done0 = 1;
  return NULL;
}

void *second(void *arg) {
  done1 = 1;
  return NULL;
}

int main(void) {
  pthread_t threads[2];
  pthread_create(&threads[0], NULL, first, NULL);
  pthread_create(&threads[1], NULL, second, NULL);
  pthread_join(threads[0], NULL);
  if (!done0) {
    reach_error();
  }
  return 0;
}
