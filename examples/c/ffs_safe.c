//#Safe
// `ffs`: the 1-based position of the least significant set bit (of the two's complement
// pattern), 0 for 0.
#include <strings.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  //@ assert ffs(0) == 0;
  //@ assert ffs(12) == 3;
  //@ assert ffs(-4) == 3;
  //@ assert ffs(-2147483647 - 1) == 32;
  int y = __VERIFIER_nondet_int();
  if (y != 0) {
    int r = ffs(y);
    //@ assert 1 <= r && r <= 32;
  }
  return 0;
}
