//#Safe
// Integers passed through `void *` to and from threads: the argument and the result are pointers
// {0, i} to no object, and convert back to i.
#include <pthread.h>
extern void reach_error(void);

void *add(void *arg) {
  return (void *)((long)arg + 42);
}

int main(void) {
  pthread_t t[2];
  int i = 0;
  while (i < 2) {
    pthread_create(&t[i], NULL, add, (void *)i);
    i++;
  }
  void *r;
  pthread_join(t[1], &r);
  if ((int)r != 43) reach_error();
  long l;
  pthread_join(t[0], (void **)&l);
  if (l != 42) reach_error();
  return 0;
}
