//#Unsafe no-data-race
// The routine forked through a pointer writes `g` while main writes it too: a data race.
#include <pthread.h>
int g = 0;
void *w1(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t t;
  void *(*r)(void *) = &w1;
  pthread_create(&t, 0, r, 0);
  g = 2;
  pthread_join(t, 0);
  return 0;
}
