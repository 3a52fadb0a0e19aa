//#Safe
// memset sets bytes: an int of bytes 0x01 is 0x01010101, of bytes 0xff is -1.
#include <string.h>
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int a[4];
  memset(a, -1, sizeof a);
  if (a[2] != -1) __VERIFIER_error();
  memset(a, 1, sizeof a);
  if (a[3] != 0x01010101) __VERIFIER_error();
  unsigned char b[5];
  memset(b, 200, 5);
  if (b[4] != 200) __VERIFIER_error();
  char c[6];
  int v = __VERIFIER_nondet_int();
  memset(c, v, 6);
  if (c[5] != (char) v) __VERIFIER_error();
  return 0;
}
