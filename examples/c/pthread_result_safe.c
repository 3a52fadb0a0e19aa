//#Safe
// The thread's result, a pointer, is read by pthread_join into a local of main.
#include <pthread.h>
extern void reach_error(void);

void *worker(void *arg) {
  return arg;
}

int main(void) {
  int x = 1;
  void *r;
  pthread_t t;
  pthread_create(&t, NULL, worker, &x);
  pthread_join(t, &r);
  if (r != &x) reach_error();
  return 0;
}
