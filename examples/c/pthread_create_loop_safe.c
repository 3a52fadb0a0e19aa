//#Safe
// Threads created and joined in loops over a constant: the fork is on a cycle, but two instances
// per fork decide the program before any thread-modular proof is tried. Each thread gets the
// address of its own id.
#include <pthread.h>
extern void reach_error(void);

int data[2];

void *worker(void *arg) {
  int i = *(int *)arg;
  data[i] = i + 1;
  return 0;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, &ids[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  if (data[0] != 1 || data[1] != 2) reach_error();
  return 0;
}
