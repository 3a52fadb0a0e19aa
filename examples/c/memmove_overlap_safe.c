//#Safe
// memmove reads every byte of the source before it writes one: the objects may overlap.
#include <string.h>
extern void __VERIFIER_error(void);
int main() {
  int a[5] = { 1, 2, 3, 4, 5 };
  memmove(a + 1, a, 4 * sizeof(int));
  if (a[0] != 1 || a[1] != 1 || a[2] != 2 || a[4] != 4) __VERIFIER_error();
  char s[6] = "abcde";
  memmove(s, s + 2, 4);
  if (s[0] != 'c' || s[2] != 'e' || s[3] != 0 || s[4] != 'e') __VERIFIER_error();
  short h[2] = { 0x1234, 0x5678 };
  memmove(h, h + 1, 1);
  if (h[0] != 0x1278) __VERIFIER_error();
  return 0;
}
