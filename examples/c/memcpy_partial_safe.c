//#Safe
// memcpy and memset that end inside an integer replace its first bytes (little-endian).
#include <string.h>
extern void __VERIFIER_error(void);
int main() {
  short a[2] = { 0x1234, 0x5678 };
  memcpy(a + 1, a, 1);
  if (a[1] != 0x5634) __VERIFIER_error();
  int b[2] = { -1, 0 };
  memcpy(b + 1, b, 3);
  if (b[1] != 0x00ffffff) __VERIFIER_error();
  memset(b, 0, 2);
  if (b[0] != (int)0xffff0000) __VERIFIER_error();
  unsigned int c[3] = { 0, 0, 0 };
  memset(c, 1, 10);
  if (c[0] != 0x01010101 || c[2] != 0x0101 || c[1] != 0x01010101) __VERIFIER_error();
  return 0;
}
