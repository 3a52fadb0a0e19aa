//#Safe
// A flexible array member: no elements of its own (the struct's size is as if it were omitted),
// its elements those of a heap object allocated larger.
#include <stdlib.h>
extern void reach_error(void);
struct str { int n; int d[]; };
struct t { char c; int d[]; };
int main(void) {
  if (sizeof(struct str) != 4 || sizeof(struct t) != 4) reach_error();
  struct str *s = malloc(sizeof(struct str) + 8);
  s->n = 2;
  s->d[0] = 1; s->d[1] = 2;
  if (s->d[1] != 2 || s->n != 2) reach_error();
  free(s);
  return 0;
}
