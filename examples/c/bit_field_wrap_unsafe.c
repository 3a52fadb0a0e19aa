//#Unsafe
// A 3-bit unsigned bit-field wraps modulo 8: 7 + 1 is 0, and the neighbouring bit-field `b`
// is untouched, so the error is reached.
#include <stdlib.h>
extern void __VERIFIER_error(void);

struct s {
  unsigned a : 3, b : 3;
};

int main(void) {
  struct s *p = calloc(1, sizeof(struct s));
  if (!p)
    return 0;
  p->a = 7;
  p->b = 1;
  p->a += 1;
  if (p->b == 1 && p->a == 0)
    __VERIFIER_error();
  free(p);
  return 0;
}
