//#Safe
// A member of a struct value that is not an object: a call's result, a conditional's; and the
// size of a string literal (its characters and the terminating null).
#include <assert.h>

struct point { int x; int y; };

struct point mirror(struct point p) {
  struct point q = { p.y, p.x };
  return q;
}

extern int __VERIFIER_nondet_int(void);

int main(void) {
  struct point a = { 1, 2 }, b = { 3, 4 };
  assert(mirror(a).x == 2 && mirror(b).y == 3);
  int c = __VERIFIER_nondet_int();
  int y = (c ? a : b).y;
  assert(y == 2 || y == 4);
  assert(sizeof("abc") == 4 && sizeof "" == 1);
  return 0;
}
