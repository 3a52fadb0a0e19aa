//#Unknown unsupported: thread argument
//#Safe
// The thread reads its argument, a pointer: without a memory model this is not translated.
#include <pthread.h>
extern void reach_error(void);

void *worker(void *arg) {
  int *p = (int *)arg;
  return NULL;
}

int main(void) {
  int x = 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, &x);
  pthread_join(t, NULL);
  return 0;
}
