//#Safe
// GCC's nand builtins: *ptr = ~(*ptr & val), returning the old value (fetch_nand) or the new one
// (nand_fetch), wrapped to the object's type.
#include <assert.h>

int main(void) {
  unsigned int x = 240;
  unsigned int old = __atomic_fetch_nand(&x, 0u, __ATOMIC_SEQ_CST);
  assert(old == 240 && x == 4294967295u);
  int y = 5;
  int n = __atomic_nand_fetch(&y, 3, __ATOMIC_SEQ_CST);
  assert(n == -2 && y == -2);
  signed char c = 7;
  signed char o = __sync_fetch_and_nand(&c, 3);
  assert(o == 7 && c == -4);
  return 0;
}
