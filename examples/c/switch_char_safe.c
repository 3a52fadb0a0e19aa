//#Safe
// switch with fall-through, char conversions and short-circuit evaluation.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int k = __VERIFIER_nondet_int();
  int r = 0;
  switch (k) {
  case 1:
    r = 10;
  case 2:
    r += 1;
    break;
  default:
    r = -1;
  }
  assert(k != 1 || r == 11);
  assert(k != 2 || r == 1);
  signed char c = 200;
  assert(c == -56);
  unsigned char u = -1;
  assert(u == 255);
  int d = 0;
  if (k != 0 && 10 / k > 100) {
    d = 1;
  }
  assert(d == 0);
  return 0;
}
