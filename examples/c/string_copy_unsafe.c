//#Unsafe
// strcat appends after the null of its destination; strchr finds the first occurrence.
#include <string.h>
extern void __VERIFIER_error(void);

int main() {
  char buf[8] = "ab";
  strcat(buf, "cb");
  char *p = strchr(buf, 'b');
  if (p - buf == 1) __VERIFIER_error();
  return 0;
}
