//#Unsafe no-data-race
// Two threads write different fields of one heap object (no race), but main reads `count` while
// the second thread may still be writing it.
#include <pthread.h>
#include <stdlib.h>

struct stats {
  int count;
  int total;
};

struct stats *s;

void *counter(void *arg) {
  s->count = 1;
  return 0;
}

void *summer(void *arg) {
  s->total = 10;
  return 0;
}

int main() {
  pthread_t a, b;
  s = malloc(sizeof(struct stats));
  pthread_create(&a, 0, counter, 0);
  pthread_create(&b, 0, summer, 0);
  pthread_join(b, 0);
  return s->count;
}
