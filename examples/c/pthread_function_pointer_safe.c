//#Safe
// A start routine held in a pointer: pthread_create forks the function the pointer holds.
#include <pthread.h>
extern void reach_error(void);
int g = 0;
void *w1(void *a) { g = 1; return 0; }
void *w2(void *a) { int *p = a; *p = 2; return 0; }
int main(void) {
  pthread_t t;
  int x = 0;
  void *(*r)(void *) = w2;
  pthread_create(&t, 0, r, &x);
  pthread_join(t, 0);
  if (x != 2) reach_error();
  r = w1;
  pthread_create(&t, 0, r, 0);
  pthread_join(t, 0);
  if (g != 1) reach_error();
  return 0;
}
