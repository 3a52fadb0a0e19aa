//#Unsafe
// `void *` only ever holds character pointers here (strings returned by threads), so a `char *`
// from a `void *` reads the cells at the type they were written with: the violation is real.
#include <pthread.h>
extern void reach_error(void);

void *name(void *arg) {
  return (void *)"sam";
}

int main(void) {
  pthread_t t;
  char *s = "";
  pthread_create(&t, NULL, name, NULL);
  pthread_join(t, (void **)&s);
  char c = *s;
  if (c != 102) reach_error();
  return 0;
}
