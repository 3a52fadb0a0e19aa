//#Safe
// The thread gets a pointer to a local of main and writes through it; main reads the value after the
// join.
#include <pthread.h>
extern void reach_error(void);

void *worker(void *arg) {
  int *p = (int *)arg;
  *p = 2;
  return NULL;
}

int main(void) {
  int x = 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, &x);
  pthread_join(t, NULL);
  if (x != 2) reach_error();
  return 0;
}
