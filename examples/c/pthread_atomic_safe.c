//#Safe
// The body of a __VERIFIER_atomic_* function runs without interruption: the other thread never
// sees the intermediate value 1.
#include <pthread.h>
extern void reach_error(void);

int g = 0;

void __VERIFIER_atomic_bump(void) {
  g = g + 1;
  g = g - 1;
}

void *watch(void *arg) {
  if (g != 0) {
    reach_error();
  }
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, watch, NULL);
  __VERIFIER_atomic_bump();
  pthread_join(t, NULL);
  return 0;
}
